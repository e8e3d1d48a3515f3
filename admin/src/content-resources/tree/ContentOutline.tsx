import { useCallback, useEffect, useRef, useState, type DragEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  IconButton,
  Stack,
  Typography,
} from '@mui/material';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import TuneIcon from '@mui/icons-material/Tune';
import { visuallyHidden } from '@mui/utils';
import { useMutation } from '@tanstack/react-query';
import {
  Link,
  useCreatePath,
  useDataProvider,
  useNotify,
  usePermissions,
  useTranslate,
  type TranslateFunction,
} from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { canWrite } from '../../permissions';
import { isContainer, typeLabel, typeNoun } from '../choices';
import { StateChip } from '../StateField';
import type { TreeNode } from '../types';
import { AddChildButton } from './AddChildDialog';
import { errorMessage } from './errors';
import { InlineAdd, NEW_CHILD_TYPES } from './InlineAdd';
import { RemoveLinkButton } from './RemoveLinkButton';
import { moved, useContentTree } from './useContentTree';

type Direction = 'up' | 'down';

/** A sibling moved from one position to another under its parent; `focus`: the button the keyboard was on. */
interface Move {
  parent: TreeNode;
  child: TreeNode;
  from: number;
  to: number;
  focus?: Direction;
}

interface OutlineActions {
  editable: boolean;
  busy: boolean;
  move: (parent: TreeNode, from: number, to: number, focus?: Direction) => void;
  reload: () => Promise<unknown>;
  /** After content was made in place: the outline reloaded, and the addition announced. */
  added: (parent: TreeNode, node: TreeNode) => Promise<unknown>;
  drag: { parentId: string; index: number } | null;
  setDrag: (drag: { parentId: string; index: number } | null) => void;
}

const untitled = (translate: TranslateFunction, node: TreeNode) => node.title || translate('console.common.untitled');

function OutlineList({ parent, depth, actions }: { parent: TreeNode; depth: number; actions: OutlineActions }) {
  const translate = useTranslate();
  return (
    <Box
      component="ol"
      aria-label={translate('console.content.outline.contentsOf', { title: untitled(translate, parent) })}
      sx={{ listStyle: 'none', m: 0, pl: depth === 0 ? 0 : 3, borderLeft: depth === 0 ? 0 : 1, borderColor: 'divider' }}
    >
      {parent.children.map((child, index) => (
        <OutlineItem
          key={child.link?.id ?? child.id}
          node={child}
          parent={parent}
          index={index}
          depth={depth}
          actions={actions}
        />
      ))}
    </Box>
  );
}

function OutlineItem({
  node,
  parent,
  index,
  depth,
  actions,
}: {
  node: TreeNode;
  parent: TreeNode;
  index: number;
  depth: number;
  actions: OutlineActions;
}) {
  const createPath = useCreatePath();
  const translate = useTranslate();
  const itemRef = useRef<HTMLLIElement>(null);
  const [dropHere, setDropHere] = useState(false);
  const [adding, setAdding] = useState(false);
  const { editable, busy, move, reload, added, drag, setDrag } = actions;
  const title = untitled(translate, node);
  const type = typeLabel(translate, node.type);
  const last = parent.children.length - 1;
  const draggingSibling = drag !== null && drag.parentId === parent.id;

  const onDragOver = (event: DragEvent) => {
    if (!draggingSibling) return; // only within the same parent; ancestors may accept it instead
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'move';
    if (!dropHere) setDropHere(true);
  };
  const onDrop = (event: DragEvent) => {
    if (!draggingSibling || !drag) return;
    event.preventDefault();
    event.stopPropagation();
    setDropHere(false);
    setDrag(null);
    if (drag.index !== index) move(parent, drag.index, index);
  };

  return (
    <Box
      component="li"
      ref={itemRef}
      aria-label={translate('console.content.outline.item', { type, title })}
      data-content-id={node.id}
      onDragOver={onDragOver}
      onDragLeave={() => setDropHere(false)}
      onDrop={onDrop}
      sx={{
        outline: dropHere ? 2 : 0,
        outlineColor: 'primary.main',
        outlineStyle: dropHere ? 'dashed' : 'none',
        borderRadius: 1,
      }}
    >
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'center', py: 0.5, pl: 1, minHeight: 40, borderBottom: 1, borderColor: 'divider' }}
      >
        {editable && (
          <Box
            draggable={!busy}
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', node.id);
              if (itemRef.current) event.dataTransfer.setDragImage(itemRef.current, 12, 12);
              setDrag({ parentId: parent.id, index });
            }}
            onDragEnd={() => setDrag(null)}
            aria-hidden
            title={translate('console.content.outline.drag')}
            sx={{ display: 'flex', cursor: busy ? 'default' : 'grab', color: 'text.disabled' }}
          >
            <DragIndicatorIcon fontSize="small" />
          </Box>
        )}
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ minWidth: 56, textTransform: 'uppercase', letterSpacing: 0.5 }}
        >
          {type}
        </Typography>
        <Link
          to={createPath({ resource: 'content-resources', id: node.id, type: 'show' })}
          sx={{ fontWeight: depth === 0 ? 600 : 400 }}
        >
          {title}
        </Link>
        {node.slug ? (
          <Typography
            variant="caption"
            color="text.secondary"
            sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}
            title={translate('console.content.outline.slug')}
          >
            {node.slug}
          </Typography>
        ) : null}
        <StateChip state={node.state} />
        {node.link?.tier === 'free' && (
          <Chip
            size="small"
            color="info"
            label={translate('console.content.tier.free')}
            title={translate('console.content.tier.freeTitle')}
          />
        )}
        <Box sx={{ flex: 1 }} />
        {editable && (
          <Stack direction="row" spacing={0.25} sx={{ alignItems: 'center' }}>
            <IconButton
              size="small"
              aria-label={translate('console.content.outline.moveUpLabel', { title })}
              title={translate('console.content.outline.moveUp')}
              data-move={`${node.id}:up`}
              disabled={busy || index === 0}
              onClick={() => move(parent, index, index - 1, 'up')}
            >
              <ArrowUpwardIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={translate('console.content.outline.moveDownLabel', { title })}
              title={translate('console.content.outline.moveDown')}
              data-move={`${node.id}:down`}
              disabled={busy || index === last}
              onClick={() => move(parent, index, index + 1, 'down')}
            >
              <ArrowDownwardIcon fontSize="small" />
            </IconButton>
            {node.link && (
              <IconButton
                size="small"
                component={Link}
                to={createPath({ resource: 'content-resource-resources', id: node.link.id, type: 'edit' })}
                aria-label={translate('console.content.outline.linkLabel', { title })}
                title={translate('console.content.outline.link')}
              >
                <TuneIcon fontSize="small" />
              </IconButton>
            )}
            {NEW_CHILD_TYPES[node.type] && (
              <IconButton
                size="small"
                aria-label={translate('console.content.outline.newInsideLabel', { title })}
                title={translate('console.content.outline.newInside')}
                aria-expanded={adding}
                onClick={() => setAdding((open) => !open)}
              >
                <PlaylistAddIcon fontSize="small" />
              </IconButton>
            )}
            {isContainer(node.type) && <AddChildButton parent={node} onAdded={reload} disabled={busy} />}
            <RemoveLinkButton node={node} parent={parent} onRemoved={reload} disabled={busy} />
          </Stack>
        )}
      </Stack>
      {node.children.length > 0 && <OutlineList parent={node} depth={depth + 1} actions={actions} />}
      {editable && adding && (
        <Box sx={{ pl: 3, borderLeft: 1, borderColor: 'divider' }}>
          <InlineAdd parent={node} disabled={busy} onAdded={(child) => added(node, child)} />
        </Box>
      )}
    </Box>
  );
}

/**
 * The outline under a course, module or section (GET …/tree): each item links to its page and shows its slug,
 * state and free tier; editors reorder siblings with Move up / Move down (or drag and drop), make new modules,
 * sections and lessons in place (a title and Enter), add existing content and remove links. Every change is saved
 * at once and the outline is reloaded from the API.
 */
export function ContentOutline({
  rootId,
  hideWhenEmpty = false,
  mayEdit = true,
}: {
  rootId: string;
  hideWhenEmpty?: boolean;
  /** Whether the signed-in person may change the root (a contributor only their own content). */
  mayEdit?: boolean;
}) {
  const { permissions } = usePermissions();
  const editable = mayEdit && canWrite(permissions, 'content-resource-resources');
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const containerRef = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<{ id: string; direction: Direction } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [drag, setDrag] = useState<{ parentId: string; index: number } | null>(null);

  const {
    query: { data: tree, error, isPending, isFetching, refetch },
    reload,
  } = useContentTree(rootId);

  // Busy until the outline is reloaded (the callbacks' promises are awaited): no second move on stale positions.
  const reorder = useMutation({
    mutationFn: ({ parent, from, to }: Move) =>
      dataProvider.reorderContent(
        parent.id,
        moved(parent.children, from, to).map((c) => c.id),
      ),
    onSuccess: async (_, { parent, child, to, focus }) => {
      if (focus) focusAfter.current = { id: child.id, direction: focus };
      await reload();
      setAnnouncement(
        translate('console.content.outline.moved', {
          title: untitled(translate, child),
          position: to + 1,
          count: parent.children.length,
          parent: untitled(translate, parent),
        }),
      );
    },
    onError: async (failure) => {
      notify(errorMessage(failure, translate('console.content.outline.moveFailed')), { type: 'error' });
      await refetch();
    },
  });
  const busy = reorder.isPending;
  const { mutate } = reorder;

  const move = useCallback(
    (parent: TreeNode, from: number, to: number, focus?: Direction) => {
      const child = parent.children[from];
      if (!child || to < 0 || to >= parent.children.length) return;
      mutate({ parent, child, from, to, focus });
    },
    [mutate],
  );

  // Keep the keyboard where it was: on the moved item's button (or its other button at either end).
  useEffect(() => {
    const target = focusAfter.current;
    if (!target || busy || !containerRef.current) return;
    focusAfter.current = null;
    const other: Direction = target.direction === 'up' ? 'down' : 'up';
    const find = (d: Direction) =>
      containerRef.current?.querySelector<HTMLButtonElement>(`[data-move="${target.id}:${d}"]`);
    const button = find(target.direction);
    (button && !button.disabled ? button : find(other))?.focus();
  }, [busy, tree]);

  const added = useCallback(
    async (parent: TreeNode, node: TreeNode) => {
      await reload();
      setAnnouncement(
        translate('console.content.outline.newAdded', {
          type: typeLabel(translate, node.type),
          title: node.title,
          slug: node.slug ?? '',
          parent: untitled(translate, parent),
        }),
      );
    },
    [reload, translate],
  );

  const actions: OutlineActions = { editable, busy, move, reload, added, drag, setDrag };
  // A lesson rarely holds anything (a solution at most): no empty outline card under every lesson.
  if (hideWhenEmpty && tree && tree.children.length === 0) return null;

  return (
    <Card variant="outlined" component="section" aria-labelledby={`outline-${rootId}`}>
      <div ref={containerRef}>
        <CardContent>
          <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 1 }}>
            <Typography id={`outline-${rootId}`} variant="h6" component="h2">
              {translate('console.content.outline.title')}
            </Typography>
            {(busy || (isFetching && !isPending)) && (
              <CircularProgress size={16} aria-label={translate('console.content.outline.updating')} />
            )}
            <Box sx={{ flex: 1 }} />
            {editable && tree && <AddChildButton parent={tree} onAdded={reload} disabled={busy} variant="text" />}
          </Stack>
          <Box role="status" aria-live="polite" sx={visuallyHidden}>
            {announcement}
          </Box>
          {isPending ? (
            <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center', py: 2 }}>
              <CircularProgress size={20} aria-hidden />
              <Typography color="text.secondary">{translate('console.content.outline.loading')}</Typography>
            </Stack>
          ) : error ? (
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void refetch()}>
                  {translate('console.common.tryAgain')}
                </Button>
              }
            >
              {translate('console.content.outline.loadFailed', {
                error: errorMessage(error, translate('console.content.outline.unknownError')),
              })}
            </Alert>
          ) : tree.children.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 2 }}>
              {translate('console.content.outline.empty', { type: typeNoun(translate, tree.type) })}
              {editable ? ` ${translate('console.content.outline.emptyHelp')}` : ''}
            </Typography>
          ) : (
            <>
              {editable && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {translate('console.content.outline.help')}
                </Typography>
              )}
              <OutlineList parent={tree} depth={0} actions={actions} />
            </>
          )}
          {editable && tree && <InlineAdd parent={tree} disabled={busy} onAdded={(node) => added(tree, node)} />}
        </CardContent>
      </div>
    </Card>
  );
}
