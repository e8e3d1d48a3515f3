// hls.js's light build (package export 'hls.js/light') ships without its own declarations: it is the full build's API.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
