// Which URLs belong to the app and which may leave for the system browser. Plain functions, no
// Electron, so they are tested under Node (test/e2e/app-urls.test.ts).

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://throughline`;

/** Only web and mail links ever leave the app, and then for the system's own browser or mail client. */
export function isExternalUrl(url: string): boolean {
  return /^(https?:|mailto:)/i.test(url.trim());
}

/** The app's own pages: app://throughline/…, or the dev server's origin under `npm start`. */
export function appUrlCheck(devUrl?: string): (url: string) => boolean {
  const dev = devUrl ? new URL(devUrl).origin : null;
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol === `${APP_SCHEME}:`) return parsed.host === 'throughline';
    return dev !== null && parsed.origin === dev;
  };
}
