import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { CONTRACT_MAJOR, parseRegistry } from '@atelier/contract';
import shellEn from '../locales/en.json';
import { RemoteLoaderContext } from './remote-context.tsx';
import { RemoteLoader, type LoadModule } from './remote-loader.ts';
import { RemoteOutlet } from './remote-outlet.tsx';

const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: { en: { shell: shellEn } }, defaultNS: 'shell', react: { useSuspense: false } });

const registry = parseRegistry({
  schema: 1,
  remotes: {
    chat: { version: '1.0.0', entry: '/remotes/chat/1.0.0/mf-manifest.json', releasedAt: 'x', mounts: [{ path: '/dashboard/chat', layout: 'dashboard' }], previous: null, history: [] },
  },
});

afterEach(cleanup);

function Boom(): never {
  throw new Error('remote bug');
}

function mount(load: LoadModule) {
  const loader = new RemoteLoader({ registry, load, fetchRegistry: async () => registry, retryDelayMs: 0 });
  render(
    <I18nextProvider i18n={i18n}>
      <RemoteLoaderContext.Provider value={loader}>
        <MemoryRouter initialEntries={['/dashboard/chat']}>
          <Routes>
            <Route path="*" element={<RemoteOutlet remote="chat" />} />
          </Routes>
        </MemoryRouter>
      </RemoteLoaderContext.Provider>
    </I18nextProvider>,
  );
}

const chatModule = (element: ReturnType<typeof createElement>, contract: number = CONTRACT_MAJOR) => ({
  name: 'chat',
  version: '1.0.0',
  contract,
  routes: [{ path: 'dashboard/chat', element }],
  i18n: { namespace: 'chat', load: {} },
});

describe('RemoteOutlet', () => {
  it('renders the remote inside an element naming it and its version', async () => {
    mount(async () => chatModule(createElement('p', null, 'chat page')));
    expect(await screen.findByText('chat page')).toBeTruthy();
    const root = screen.getByText('chat page').closest('[data-remote]')!;
    expect(root.getAttribute('data-remote')).toBe('chat');
    expect(root.getAttribute('data-remote-version')).toBe('1.0.0');
  });

  it('shows a localized fallback with Retry when loading fails, and recovers on Retry', async () => {
    let healthy = false;
    const load = vi.fn<LoadModule>(async () => {
      if (!healthy) throw new Error('manifest 404');
      return chatModule(createElement('p', null, 'chat is back'));
    });
    mount(load);
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText('This part of Atelier could not be loaded')).toBeTruthy();
    healthy = true;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(await screen.findByText('chat is back')).toBeTruthy();
  });

  it('says clearly when the remote was built for another contract', async () => {
    mount(async () => chatModule(createElement('p', null, 'never'), CONTRACT_MAJOR + 1));
    expect(await screen.findByText('This part of Atelier needs an update')).toBeTruthy();
    expect(screen.getByText(new RegExp(`contract version ${CONTRACT_MAJOR + 1}`))).toBeTruthy();
  });

  it('contains a render error to the remote area', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mount(async () => chatModule(createElement(Boom)));
    expect(await screen.findByText('This part of Atelier stopped working')).toBeTruthy();
    expect(screen.getByRole('alert').getAttribute('data-fallback-kind')).toBe('crashed');
  });
});
