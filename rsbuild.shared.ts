/**
 * One factory for every app's Rsbuild + Module Federation config. The shared-dependency policy
 * lives here and nowhere else: versions come from the pnpm catalog (pnpm-workspace.yaml), the
 * list of federated singletons from FEDERATED below.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type RsbuildConfig } from '@rsbuild/core';
import { pluginReact } from '@rsbuild/plugin-react';
import { pluginModuleFederation } from '@module-federation/rsbuild-plugin';
import { parse } from 'yaml';
import { federationName } from './shared/contract/src/remote-module.ts';
import { pluginServiceWorker } from './shell/src/sw/rsbuild-plugin.ts';

export const ROOT = dirname(fileURLToPath(import.meta.url));
const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/;

/** npm packages loaded once per page. Subpath keys (`react/`) share `react/jsx-runtime` etc. */
export const FEDERATED_PACKAGES = [
  'react',
  'react-dom',
  'react-router',
  'i18next',
  'react-i18next',
  'zustand',
  'mitt',
  '@tanstack/react-query',
  'zod',
] as const;
export const FEDERATED_SUBPATHS = ['react', 'react-dom'] as const;
export const WORKSPACE_SHARED = ['contract', 'events', 'session', 'i18n', 'api', 'ui', 'config'] as const;

interface SharedEntry {
  singleton: true;
  requiredVersion: string;
  strictVersion?: boolean;
}

export function readCatalog(root = ROOT): Record<string, string> {
  const ws = parse(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8')) as { catalog?: Record<string, string> };
  return ws.catalog ?? {};
}

function workspaceVersion(pkg: string, root = ROOT): string {
  return (JSON.parse(readFileSync(join(root, 'shared', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The `shared` map every app (host and remotes) is built with. */
export function federatedShared(root = ROOT): Record<string, SharedEntry> {
  const catalog = readCatalog(root);
  const shared: Record<string, SharedEntry> = {};
  for (const name of FEDERATED_PACKAGES) {
    const range = catalog[name];
    if (!range) throw new Error(`${name} is federated but has no version in the pnpm catalog`);
    // No `treeShaking` here: with `runtime-infer`, a remote calling an export the shell did not
    // use (react-query's useQuery) got the shell's shaken build and crashed. Whole libraries cost
    // more bytes but let a remote released later use any export.
    shared[name] = { singleton: true, requiredVersion: range };
  }
  for (const name of FEDERATED_SUBPATHS) shared[`${name}/`] = { singleton: true, requiredVersion: catalog[name]! };
  for (const pkg of WORKSPACE_SHARED) {
    const v = workspaceVersion(pkg, root);
    // A workspace package is pinned to its major: a remote built against contract 1.x must
    // never silently run on 2.x. Subpaths (`@atelier/api/schemas`) are shared the same way.
    shared[`@atelier/${pkg}`] = { singleton: true, requiredVersion: `^${v}` };
    shared[`@atelier/${pkg}/`] = { singleton: true, requiredVersion: `^${v}` };
  }
  return shared;
}


interface PackageJson {
  name: string;
  version: string;
  atelier?: { remote?: string; devPort?: number };
}

function readPackage(dir: string): PackageJson {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
}

const commonConfig = (appDir: string): RsbuildConfig => ({
  plugins: [pluginReact()],
  source: {
    entry: { index: join(appDir, 'src/index.ts') },
  },
  output: {
    cleanDistPath: true,
    // The dashboard is a modern-browser product; no legacy transpilation.
    overrideBrowserslist: ['chrome >= 111', 'edge >= 111', 'firefox >= 115', 'safari >= 16.4'],
  },
  performance: { chunkSplit: { strategy: 'split-by-experience' } },
});

/** Config for one remote: exposes `./module`, builds to its own dist with mf-manifest.json. */
export function defineRemoteConfig(appDir: string) {
  const pkg = readPackage(appDir);
  const remote = pkg.atelier?.remote;
  if (!remote) throw new Error(`${pkg.name}: package.json lacks atelier.remote`);
  const base = commonConfig(appDir);
  // `npm run dev -- --remote x`: this remote in dev mode inside the production shell, whose React
  // is the production build. It must then emit production JSX and reload the page on change,
  // since Fast Refresh needs React's development build.
  const againstProduction = process.env.ATELIER_AGAINST_PRODUCTION === '1';
  return defineConfig({
    ...base,
    source: {
      ...base.source,
      define: {
        'process.env.ATELIER_REMOTE_VERSION': JSON.stringify(process.env.ATELIER_REMOTE_VERSION ?? pkg.version),
      },
    },
    // In dev mode the shell (or the production server) loads this remote from its dev server.
    server: { port: pkg.atelier?.devPort ?? 3001, cors: { origin: LOCAL_ORIGIN } },
    dev: {
      assetPrefix: true,
      client: { host: 'localhost', port: pkg.atelier?.devPort ?? 3001 },
      ...(againstProduction ? { hmr: false, liveReload: true } : {}),
    },
    output: {
      ...base.output,
      assetPrefix: 'auto',
      distPath: { root: process.env.ATELIER_OUT_DIR ?? join(appDir, 'dist') },
    },
    html: { template: undefined },
    plugins: [
      againstProduction ? pluginReact({ fastRefresh: false, swcReactOptions: { development: false } }) : pluginReact(),
      pluginModuleFederation({
        name: federationName(remote),
        filename: 'remoteEntry.js',
        exposes: { './module': join(appDir, 'src/module.ts') },
        shared: federatedShared(),
        manifest: true,
        dts: false,
        shareStrategy: 'loaded-first',
        // Use the shell's federation runtime instead of shipping a copy in every remote entry.
        experiments: { externalRuntime: true },
      }),
    ],
  });
}

/**
 * Config for the shell. With `monolith`, the same shell is built without Module Federation and
 * with every remote bundled in, for the web benchmark's comparison.
 */
export function defineShellConfig(appDir: string, options: { monolith?: boolean } = {}) {
  const pkg = readPackage(appDir);
  const base = commonConfig(appDir);
  const monolith = options.monolith ?? process.env.ATELIER_MONOLITH === '1';
  return defineConfig({
    ...base,
    source: {
      // Without federation there is no shared-module negotiation, so no async boundary either.
      // The federated shell declares its entry in environments.web, beside the service worker.
      ...(monolith ? { entry: { index: join(appDir, 'src', 'bootstrap.tsx') } } : {}),
      define: {
        'process.env.ATELIER_SHELL_VERSION': JSON.stringify(pkg.version),
        // The monolith bundles the remotes' sources, which read their version at build time,
        // and has no service worker (pluginServiceWorker defines its URL in the federated shell).
        ...(monolith ? { 'process.env.ATELIER_REMOTE_VERSION': JSON.stringify('bundled'), 'process.env.ATELIER_SERVICE_WORKER_URL': JSON.stringify('') } : {}),
        'process.env.ATELIER_BUILD_TIME': JSON.stringify(Date.now()),
      },
    },
    resolve: {
      alias: {
        '#remote-loader': join(appDir, 'src/remotes', monolith ? 'load-bundled.ts' : 'load-federated.ts'),
      },
    },
    // Dev mode: the API, registry and runtime config come from the server (npm run dev starts it).
    server: {
      port: 3000,
      proxy: Object.fromEntries(['/api', '/remotes.json', '/config.json', '/version.json'].map((p) => [p, `http://localhost:${process.env.ATELIER_SERVER_PORT ?? 8080}`])),
    },
    html: { template: join(appDir, 'src/index.html'), favicon: join(appDir, 'src/favicon.svg'), inject: 'head', scriptLoading: 'defer' },
    output: {
      ...base.output,
      assetPrefix: '/',
      distPath: { root: process.env.ATELIER_OUT_DIR ?? join(appDir, monolith ? 'dist-monolith' : 'dist') },
    },
    // The page (`web`, the environment Module Federation applies to) and, added by
    // pluginServiceWorker, the service worker (`sw`, shell/src/sw). Not in the monolith.
    ...(monolith ? {} : { environments: { web: { source: { entry: { index: join(appDir, 'src', 'index.ts') } } } } }),
    plugins: monolith
      ? base.plugins
      : [
          ...(base.plugins ?? []),
          pluginServiceWorker({ entry: join(appDir, 'src', 'sw', 'sw.ts') }),
          pluginModuleFederation({
            name: 'atelier_shell',
            remotes: {},
            shared: federatedShared(),
            manifest: true,
            dts: false,
            shareStrategy: 'loaded-first',
            experiments: { provideExternalRuntime: true },
          }),
        ],
  });
}
