/**
 * Build time only (Node): adds the service worker to the shell's Rsbuild build.
 *
 * Why this shape, rather than workbox-build or workbox-webpack-plugin:
 * - The worker is bundled by Rsbuild itself, as a second environment (`sw`, target web-worker)
 *   of the same build: the same Rspack, SWC minifier, browserslist and TypeScript handling as the
 *   shell, the workbox-* modules tree-shaken into one file, and no Module Federation in it (the
 *   federation plugin is scoped to the `web` environment).
 * - workbox-webpack-plugin's InjectManifest relies on webpack child compilers, which Rspack
 *   does not fully support; workbox-build's injectManifest expects an already bundled worker and
 *   brings Rollup, Babel and Terser along for its generateSW mode. What is left for us — list the
 *   shell's files and replace `self.__WB_MANIFEST` with them — is done after the build, once both
 *   environments are written (./precache-manifest.ts), in Workbox's manifest format.
 * - The result is a complete dist/sw.js, so publishing the shell needs no extra step.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RsbuildPlugin } from '@rsbuild/core';
import { SERVICE_WORKER_URL } from './messages.ts';
import { injectManifest, precacheManifest } from './precache-manifest.ts';

export const SW_ENVIRONMENT = 'sw';
const WORKER_FILE = SERVICE_WORKER_URL.slice(1);

export function pluginServiceWorker(options: { entry: string }): RsbuildPlugin {
  return {
    name: 'atelier:service-worker',
    setup(api) {
      api.modifyRsbuildConfig((config, { mergeRsbuildConfig }) => {
        if (config.source?.entry) {
          // Environments merge the top-level config into their own: a top-level entry would be
          // bundled into the worker as well. The shell declares its entry in `environments.web`.
          throw new Error('pluginServiceWorker: declare the page entry in environments.web, not source.entry');
        }
        return mergeRsbuildConfig(config, {
          source: {
            // The page registers the worker only when the build has one (not in the monolith).
            define: { 'process.env.ATELIER_SERVICE_WORKER_URL': JSON.stringify(SERVICE_WORKER_URL) },
          },
          environments: {
            [SW_ENVIRONMENT]: {
              source: { entry: { sw: options.entry } },
              output: {
                target: 'web-worker',
                // At the root of the deploy (its scope is the whole site), under a fixed name:
                // the browser compares this file byte for byte to detect a new deployment.
                filename: { js: WORKER_FILE },
                distPath: { js: '' },
                sourceMap: false,
              },
              performance: { chunkSplit: { strategy: 'all-in-one' } },
            },
          },
        });
      });

      api.onAfterBuild(({ environments }) => {
        const worker = environments[SW_ENVIRONMENT];
        if (!worker) return;
        const file = join(worker.distPath, WORKER_FILE);
        const manifest = precacheManifest(worker.distPath);
        writeFileSync(file, injectManifest(readFileSync(file, 'utf8'), manifest));
        api.logger.info(`service worker: ${manifest.length} shell files precached`);
      });
    },
  };
}
