import {
  ImageField,
  ImageInput,
  TextInput,
  maxLength,
  useRecordContext,
  useResourceContext,
  useTranslateLabel,
} from 'react-admin';

/** The types the API takes (it checks the bytes; this only narrows the file chooser). */
const ACCEPT = { 'image/jpeg': [], 'image/png': [], 'image/webp': [], 'image/avif': [] };

/** A stored picture at a preview's width (GET /media/images/:key?w=…, api/src/media/routes.ts). */
const previewOf = (key: string) => `/media/images/${encodeURIComponent(key)}?w=320`;

/**
 * A record's picture: the current one as a preview, a drop zone to choose another (previewed at once), and a
 * remove button; the file is sent when the form is saved (admin/src/media/imageUploads.ts). The value is the
 * picture's key while unchanged, the chosen file, or null once removed.
 */
export function PictureInput({ source, title, helperText }: { source: string; title: string; helperText: string }) {
  const resource = useResourceContext();
  const label = useTranslateLabel()({ source, resource });
  return (
    <ImageInput
      source={source}
      accept={ACCEPT}
      // The drop zone's file input has no label of its own: it takes the field's.
      inputProps={{ 'aria-label': String(label) }}
      format={(value: unknown) => (typeof value === 'string' ? { src: previewOf(value), title } : value)}
      helperText={helperText}
      sx={{
        '& .RaFileInput-dropZone': { maxWidth: 480 },
        '& img': { maxWidth: 320, maxHeight: 240 },
        // react-admin shows the remove button on hover only: a keyboard or touch user would never find it.
        '& .RaFileInput-removeButton button': { opacity: 1, bgcolor: 'background.paper', boxShadow: 1 },
      }}
    >
      <ImageField source="src" title="title" />
    </ImageInput>
  );
}

/** The product's image and the words that describe it (its alt text on the storefront). */
export function ProductImageInputs() {
  const product = useRecordContext<{ name?: string; imageAlt?: string | null }>();
  return (
    <>
      <PictureInput
        source="imageKey"
        title={product?.imageAlt || product?.name || ''}
        helperText="resources.products.help.imageKey"
      />
      <TextInput source="imageAlt" validate={maxLength(300)} helperText="resources.products.help.imageAlt" fullWidth />
    </>
  );
}

/** A person's avatar, shown beside their name and bio on the sales pages of the products they teach. */
export function AvatarInput() {
  const user = useRecordContext<{ name?: string | null; email?: string }>();
  return (
    <PictureInput
      source="avatarKey"
      title={user?.name || user?.email || ''}
      helperText="resources.users.help.avatarKey"
    />
  );
}
