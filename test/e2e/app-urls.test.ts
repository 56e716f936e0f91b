// The Electron window's navigation rules, tested without Electron.
import { describe, expect, it } from 'vitest';
import { appUrlCheck, isExternalUrl } from '../../src/main/app/urls.js';

describe('app window URLs', () => {
  it('treats only app://throughline and the dev server as the app', () => {
    const built = appUrlCheck();
    expect(built('app://throughline/index.html#/compose')).toBe(true);
    expect(built('app://evil/index.html')).toBe(false);
    expect(built('file:///etc/passwd')).toBe(false);
    expect(built('http://localhost:5173/')).toBe(false);
    expect(built('javascript:alert(1)')).toBe(false);
    expect(built('not a url')).toBe(false);
    const dev = appUrlCheck('http://localhost:5173/');
    expect(dev('http://localhost:5173/#/settings')).toBe(true);
    expect(dev('http://localhost:5174/')).toBe(false);
    expect(dev('http://localhost.evil.example:5173/')).toBe(false);
  });

  it('sends only web and mail links to the system', () => {
    expect(isExternalUrl('https://example.org/docs')).toBe(true);
    expect(isExternalUrl('mailto:someone@example.org')).toBe(true);
    for (const url of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'smb://host/share', 'app://throughline/']) {
      expect(isExternalUrl(url), url).toBe(false);
    }
  });
});
