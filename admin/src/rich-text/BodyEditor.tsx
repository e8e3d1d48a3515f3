import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Box } from '@mui/material';
import SmartDisplayOutlinedIcon from '@mui/icons-material/SmartDisplayOutlined';
import { TableCell, TableHeader, TableRow } from '@tiptap/extension-table';
import { Image } from '@tiptap/extension-image';
import StarterKit from '@tiptap/starter-kit';
import type { Editor } from '@tiptap/react';
import { useNotify, useTranslate } from 'react-admin';
import {
  LinkBubbleMenu,
  LinkBubbleMenuHandler,
  MenuButton,
  MenuButtonAddImage,
  MenuButtonAddTable,
  MenuButtonBlockquote,
  MenuButtonBold,
  MenuButtonBulletedList,
  MenuButtonCode,
  MenuButtonCodeBlock,
  MenuButtonEditLink,
  MenuButtonItalic,
  MenuButtonOrderedList,
  MenuButtonRedo,
  MenuButtonUndo,
  MenuControlsContainer,
  MenuDivider,
  MenuSelectHeading,
  RichTextEditor,
  TableBubbleMenu,
  TableImproved,
  type RichTextEditorRef,
} from 'mui-tiptap';
import type { BodyEditorProps } from './types';
import { ImageUrlDialog } from './ImageUrlDialog';
import { EmbedDialog } from './EmbedDialog';
import { Embed } from './embedNode';
import { formatLinkHref, refusedScheme } from './linkHref';

/** Only what the API's sanitizer keeps: h1–h4, marks, lists, links, code, images by URL, tables, embeds. */
function bodyExtensions(describeEmbed: (provider: string, title: string) => string) {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3, 4] },
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        protocols: ['http', 'https', 'mailto'],
        // The API drops any other scheme (javascript:, data:): refuse it in the editor too.
        isAllowedUri: (url, ctx) =>
          (/^(https?:|mailto:)/i.test(url) || /^[/#](?!\/)/.test(url)) && ctx.defaultValidate(url),
      },
      trailingNode: false,
    }),
    LinkBubbleMenuHandler,
    Image.configure({ inline: false, allowBase64: false }),
    TableImproved.configure({ resizable: false }),
    TableRow,
    TableHeader,
    TableCell,
    Embed.configure({ describe: describeEmbed }),
  ];
}

/** The editor proper: loaded on demand (React.lazy) so that the console's first load stays small. */
export default function BodyEditor({
  value,
  onChange,
  onBlur,
  label,
  describedBy,
  invalid,
  disabled,
}: BodyEditorProps) {
  const editorRef = useRef<RichTextEditorRef>(null);
  const translate = useTranslate();
  const [imageOpen, setImageOpen] = useState(false);
  const [embedOpen, setEmbedOpen] = useState(false);
  const extensions = useMemo(
    () => bodyExtensions((provider, title) => translate('console.embeds.card', { provider, title })),
    [translate],
  );
  // The initial content only: later changes flow out through onUpdate, never back in.
  const [initialContent] = useState(value);

  const emit = (editor: Editor) => onChange(editor.isEmpty ? '' : editor.getHTML());

  // The link dialog (mui-tiptap's form, its text then its link input) has no say on what it saves: refuse a
  // javascript:, data: or other scheme here, before its own submit, on the input and in words.
  const notify = useNotify();
  const linkInput = (form: EventTarget) => (form as HTMLFormElement).querySelectorAll('input')[1];
  const refuseLink = (event: FormEvent) => {
    const input = linkInput(event.target);
    const scheme = input ? refusedScheme(input.value) : null;
    if (!input || !scheme) return;
    event.preventDefault();
    event.stopPropagation();
    const message = translate('console.content.editor.linkRefused', { scheme });
    input.setCustomValidity(message);
    input.reportValidity();
    notify(message, { type: 'warning' });
  };
  const clearRefusal = (event: FormEvent) => {
    if (event.target instanceof HTMLInputElement) event.target.setCustomValidity('');
  };

  return (
    <Box
      sx={{
        '& .ProseMirror': { minHeight: 240 },
        '& .rich-text-embed': {
          my: 1,
          p: 2,
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          bgcolor: 'action.hover',
        },
        ...(invalid ? { '& .MuiTiptap-FieldContainer-notchedOutline': { borderColor: 'error.main' } } : {}),
      }}
    >
      <RichTextEditor
        ref={editorRef}
        extensions={extensions}
        content={initialContent}
        editable={!disabled}
        // Created after mount: an instance made during a render that React then discards is destroyed by Tiptap
        // a tick later, and the bubble menus would meet it half torn down.
        immediatelyRender={false}
        editorProps={{
          attributes: {
            role: 'textbox',
            'aria-multiline': 'true',
            'aria-label': label,
            ...(describedBy ? { 'aria-describedby': describedBy } : {}),
            ...(invalid ? { 'aria-invalid': 'true' } : {}),
            spellcheck: 'true',
          },
        }}
        onUpdate={({ editor }) => emit(editor)}
        onBlur={() => onBlur()}
        renderControls={() => (
          <MenuControlsContainer>
            <Box
              role="toolbar"
              aria-label={translate('console.content.editor.toolbar', { label })}
              sx={{ display: 'contents' }}
            >
              <MenuSelectHeading
                aria-label={translate('console.content.editor.textStyle')}
                tooltipTitle={translate('console.content.editor.textStyle')}
              />
              <MenuDivider />
              <MenuButtonBold />
              <MenuButtonItalic />
              <MenuButtonCode />
              <MenuButtonEditLink />
              <MenuDivider />
              <MenuButtonBulletedList />
              <MenuButtonOrderedList />
              <MenuButtonBlockquote />
              <MenuButtonCodeBlock />
              <MenuDivider />
              <MenuButtonAddImage
                tooltipLabel={translate('console.content.editor.insertImage')}
                onClick={() => setImageOpen(true)}
              />
              <MenuButtonAddTable tooltipLabel={translate('console.content.editor.insertTable')} />
              <MenuButton
                tooltipLabel={translate('console.embeds.insert')}
                aria-label={translate('console.embeds.insert')}
                IconComponent={SmartDisplayOutlinedIcon}
                onClick={() => setEmbedOpen(true)}
              />
              <MenuDivider />
              <MenuButtonUndo />
              <MenuButtonRedo />
            </Box>
          </MenuControlsContainer>
        )}
      >
        {(editor) =>
          editor && !editor.isDestroyed ? (
            <>
              <Box sx={{ display: 'contents' }} onSubmitCapture={refuseLink} onInputCapture={clearRefusal}>
                <LinkBubbleMenu
                  formatHref={formatLinkHref}
                  labels={{
                    editLinkSaveButtonLabel: translate('console.content.editor.saveLink'),
                    editLinkCancelButtonLabel: translate('console.content.editor.cancelLink'),
                  }}
                />
              </Box>
              <TableBubbleMenu />
            </>
          ) : null
        }
      </RichTextEditor>
      <EmbedDialog
        open={embedOpen}
        onClose={() => setEmbedOpen(false)}
        onInsert={(embed) =>
          editorRef.current?.editor?.chain().focus().insertContent({ type: 'embed', attrs: embed }).run()
        }
      />
      <ImageUrlDialog
        open={imageOpen}
        onClose={() => setImageOpen(false)}
        onInsert={(image) => {
          const editor = editorRef.current?.editor;
          if (editor)
            editor
              .chain()
              .focus()
              .setImage({ src: image.src, alt: image.alt || undefined })
              .run();
        }}
      />
    </Box>
  );
}
