/** The frame's phrases, picked from the catalog by the build (admin/vite.config.ts, ./frame.ts). */
declare module 'virtual:console-frame-messages' {
  const frame: Record<string, unknown>;
  export default frame;
}
