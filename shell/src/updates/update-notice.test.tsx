import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import shellEn from '../locales/en.json';
import shellJa from '../locales/ja.json';
import { VERSION_CHECK_INTERVAL_MS } from './constants.ts';
import { UpdateNotice } from './update-notice.tsx';
import { UpdateWatcher } from './update-watcher.ts';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({
  lng: 'en',
  resources: { en: { shell: shellEn }, ja: { shell: shellJa } },
  defaultNS: 'shell',
  react: { useSuspense: false },
});

let timestamp = 100;
const reload = vi.fn();

function mount() {
  const watcher = new UpdateWatcher({
    fetch: (async () => Response.json({ timestamp })) as typeof fetch,
    localStorage,
    sessionStorage,
    now: () => Date.now(),
    reload,
    debug: vi.fn(),
    intervalMs: VERSION_CHECK_INTERVAL_MS,
  });
  render(
    <I18nextProvider i18n={i18n}>
      <UpdateNotice watcher={watcher} />
    </I18nextProvider>,
  );
  return watcher;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  localStorage.clear();
  sessionStorage.clear();
  timestamp = 100;
  reload.mockReset();
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await i18n.changeLanguage('en');
});

describe('UpdateNotice', () => {
  it('shows nothing until a new version is found, inside a polite live region', async () => {
    mount();
    await act(async () => {});
    expect(localStorage.getItem('app_version')).toBe('100');
    expect(screen.queryByRole('region')).toBeNull();
    expect(document.body.querySelector('[aria-live="polite"]')).not.toBeNull();
  });

  it('appears with the seed texts, stays, and "Refresh Now" stores the timestamp and reloads', async () => {
    mount();
    await act(async () => {});
    timestamp = 200;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERSION_CHECK_INTERVAL_MS);
    });
    const notice = screen.getByRole('region', { name: 'A new version is available' });
    expect(notice.textContent).toContain('Updates are ready, click to refresh');
    const button = screen.getByRole('button', { name: 'Refresh Now' });
    expect(notice.contains(button)).toBe(true);
    button.focus();
    expect(document.activeElement).toBe(button);
    await act(async () => {
      fireEvent.click(button);
    });
    expect(localStorage.getItem('app_version')).toBe('200');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('speaks the page language', async () => {
    await i18n.changeLanguage('ja');
    const watcher = mount();
    await act(async () => {});
    timestamp = 200;
    await act(async () => {
      await watcher.check();
    });
    expect(screen.getByRole('region', { name: '新しいバージョンが利用可能です' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '今すぐ更新' })).toBeTruthy();
  });
});
