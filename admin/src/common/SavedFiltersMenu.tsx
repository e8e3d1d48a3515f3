import BookmarkAddIcon from '@mui/icons-material/BookmarkAdd';
import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import BookmarksOutlinedIcon from '@mui/icons-material/BookmarksOutlined';
import DeleteOutlinedIcon from '@mui/icons-material/DeleteOutlined';
import {
  Button as MuiButton,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  Button,
  HttpError,
  useDataProvider,
  useListContext,
  useNotify,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import type { ConsoleDataProvider } from '../dataProvider';
import { retryUnanswered } from '../dataProvider';

/** Filter values worth saving: react-admin keeps cleared inputs as empty strings. */
const withoutBlank = (filter: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== '' && v !== undefined && v !== null));

/**
 * The signed-in person's saved filters of this list, kept by the API (so they follow them to any device; nobody else
 * sees them): one click re-applies a saved set of filters and its sort; the current ones are saved under a name.
 */
export function SavedFiltersMenu() {
  const resource = useResourceContext()!;
  const { filterValues, sort, setFilters, setSort } = useListContext();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const key = ['saved-filters', resource];
  const saved = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => dataProvider.getSavedFilters(resource, { signal }).then((answer) => answer.data),
    retry: retryUnanswered,
  });
  const current = withoutBlank(filterValues as Record<string, unknown>);

  const save = useMutation({
    mutationFn: () => dataProvider.saveFilters({ resource, name, filter: current, sort }),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: key });
      notify('console.lists.saved.saved', { type: 'success', messageArgs: { name: data.name } });
      setNaming(false);
      setName('');
    },
    onError: (error) => {
      const field =
        error instanceof HttpError ? (error.body as { errors?: Record<string, string> })?.errors : undefined;
      setNameError(field?.name ?? field?.filter ?? (error instanceof Error ? error.message : String(error)));
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => dataProvider.deleteSavedFilters(id),
    onSuccess: ({ data }) => {
      void queryClient.invalidateQueries({ queryKey: key });
      notify('console.lists.saved.deleted', { type: 'info', messageArgs: { name: data.name } });
    },
    onError: (error) => notify(error instanceof Error ? error.message : String(error), { type: 'error' }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNameError(null);
    save.mutate();
  };

  return (
    <>
      <Button
        label="console.lists.saved.label"
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
      >
        <BookmarksOutlinedIcon />
      </Button>
      <Menu open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)}>
        {saved.data?.length ? (
          saved.data.map((filters) => (
            <MenuItem
              key={filters.id}
              onClick={() => {
                setAnchor(null);
                const displayed = Object.fromEntries(Object.keys(filters.filter).map((k) => [k, true]));
                setFilters(filters.filter, displayed);
                if (filters.sort) setSort(filters.sort);
                notify('console.lists.saved.applied', { type: 'info', messageArgs: { name: filters.name } });
              }}
            >
              <ListItemIcon>
                <BookmarkBorderIcon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{filters.name}</ListItemText>
              <IconButton
                size="small"
                edge="end"
                sx={{ ml: 2 }}
                aria-label={translate('console.lists.saved.delete', { name: filters.name })}
                onClick={(event) => {
                  event.stopPropagation();
                  remove.mutate(filters.id);
                }}
              >
                <DeleteOutlinedIcon fontSize="small" />
              </IconButton>
            </MenuItem>
          ))
        ) : (
          <MenuItem disabled>
            <ListItemText>{translate('console.lists.saved.none')}</ListItemText>
          </MenuItem>
        )}
        <Divider />
        <MenuItem
          disabled={Object.keys(current).length === 0}
          onClick={() => {
            setAnchor(null);
            setNameError(null);
            setNaming(true);
          }}
        >
          <ListItemIcon>
            <BookmarkAddIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText
            secondary={Object.keys(current).length === 0 ? translate('console.lists.saved.nothingToSave') : undefined}
          >
            {translate('console.lists.saved.save')}
          </ListItemText>
        </MenuItem>
      </Menu>
      <Dialog open={naming} onClose={() => setNaming(false)} fullWidth maxWidth="xs">
        <form onSubmit={submit}>
          <DialogTitle>{translate('console.lists.saved.dialogTitle')}</DialogTitle>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{translate('console.lists.saved.dialogHelp')}</DialogContentText>
            <TextField
              autoFocus
              fullWidth
              required
              label={translate('console.lists.saved.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={Boolean(nameError)}
              helperText={nameError ?? ' '}
              slotProps={{ htmlInput: { maxLength: 100 } }}
            />
          </DialogContent>
          <DialogActions>
            <MuiButton onClick={() => setNaming(false)}>{translate('console.common.cancel')}</MuiButton>
            <MuiButton type="submit" variant="contained" disabled={!name.trim() || save.isPending}>
              {translate('console.lists.saved.saveButton')}
            </MuiButton>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
}
