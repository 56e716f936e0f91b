// The preload (Electron) puts the api on window; in browser mode it is absent and HTTP is used.
import type { Api } from '../../shared/api';

declare global {
  interface Window {
    throughline?: Api;
  }
}

export {};
