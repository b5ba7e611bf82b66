import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadGenerationSettings } from '../src/config.ts';
import { DEFAULT_TXT2IMG } from '../src/engines/adapters/comfyui/index.ts';
import { configuredModels } from '../src/engines/models.ts';

const dir = mkdtempSync(join(tmpdir(), 'atelier-backends-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const load = (backends: unknown, env: Record<string, string> = {}) => loadGenerationSettings({ ATELIER_BACKENDS: JSON.stringify(backends), ...env });

describe('ATELIER_BACKENDS', () => {
  it('is empty by default', () => {
    expect(loadGenerationSettings({}).backends).toEqual([]);
  });

  it('reads inline JSON, with each protocol’s default address and the key from the environment', () => {
    const settings = load(
      [
        { id: 'oa', type: 'openai', apiKeyEnv: 'OPENAI_API_KEY', models: [{ id: 'oa-image', kind: 'image', remoteModel: 'gpt-image-1', price: 4 }, { id: 'oa-chat', kind: 'chat', remoteModel: 'gpt-4o-mini' }] },
        { id: 'gpu', type: 'comfyui', baseUrl: 'http://gpu.internal:8188/', models: [{ id: 'gpu-sd', kind: 'image' }] },
      ],
      { OPENAI_API_KEY: 'sk-from-env' },
    );
    expect(settings.backends).toMatchObject([
      { id: 'oa', type: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-from-env', requestTimeoutMs: 60_000, pollIntervalMs: 1000 },
      { id: 'gpu', type: 'comfyui', baseUrl: 'http://gpu.internal:8188', apiKey: null },
    ]);
  });

  it('reads ATELIER_BACKENDS_FILE, with workflow files relative to it', () => {
    const workflow = { ...DEFAULT_TXT2IMG, '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'studio', images: ['8', 0] } } };
    writeFileSync(join(dir, 'sdxl.json'), JSON.stringify(workflow));
    const file = join(dir, 'backends.json');
    writeFileSync(file, JSON.stringify({ backends: [{ id: 'gpu', type: 'comfyui', models: [{ id: 'gpu-sdxl', kind: 'image', workflow: 'sdxl.json', price: 2 }] }] }));
    const settings = loadGenerationSettings({ ATELIER_BACKENDS_FILE: file });
    expect(settings.backends[0]!.models[0]!.workflow).toEqual(workflow);
  });

  it.each([
    ['a kind the protocol does not serve', [{ id: 'w', type: 'a1111', models: [{ id: 'w-video', kind: 'video' }] }], /a1111 backends serve image, not video/],
    ['an unknown placeholder', [{ id: 'r', type: 'replicate', apiKey: 'r8', models: [{ id: 'r1', kind: 'music', remoteModel: 'a/b', input: { prompt: '{{prompt}}', w: '{{width}}' } }] }], /unknown placeholder \{\{width\}\}/],
    ['a workflow in the editor’s format', [{ id: 'c', type: 'comfyui', models: [{ id: 'c1', kind: 'image', workflow: { nodes: [], links: [] } }] }], /Export \(API\)/],
    ['a video workflow missing', [{ id: 'c', type: 'comfyui', models: [{ id: 'c1', kind: 'video' }] }], /needs its workflow/],
    ['an edit workflow without the picture', [{ id: 'c', type: 'comfyui', models: [{ id: 'c1', kind: 'image', editWorkflow: { '1': { class_type: 'X', inputs: { t: '{{prompt}}' } } } }] }], /no \{\{image\}\}/],
    ['Replicate without a token', [{ id: 'r', type: 'replicate', models: [{ id: 'r1', kind: 'image', remoteModel: 'a/b' }] }], /needs an API token/],
    ['an apiKeyEnv that is not set', [{ id: 'o', type: 'openai', apiKeyEnv: 'NOPE_KEY', models: [{ id: 'o1', kind: 'chat' }] }], /NOPE_KEY \(apiKeyEnv\) is not set/],
    ['a model listed twice', [{ id: 'o', type: 'openai', models: [{ id: 'x', kind: 'chat' }] }, { id: 'p', type: 'openai', models: [{ id: 'x', kind: 'image' }] }], /model x is listed twice/],
    ['an unknown field', [{ id: 'o', type: 'openai', models: [{ id: 'x', kind: 'chat', prise: 3 }] }], /prise/],
  ])('stops the start with a message on %s', (_, backends, message) => {
    expect(() => load(backends)).toThrow(message);
  });

  it('says where JSON is broken', () => {
    expect(() => loadGenerationSettings({ ATELIER_BACKENDS: '[{"id": ' })).toThrow(/ATELIER_BACKENDS is not readable JSON/);
  });
});

describe('configured models', () => {
  it('come after the built-in ones, priced and limited as configured', () => {
    const settings = load(
      [
        { id: 'oa', type: 'openai', apiKey: 'sk', models: [{ id: 'oa-image', kind: 'image', price: 4, limits: { n: { min: 1, max: 1 } } }, { id: 'oa-video', kind: 'video', timeoutSec: 900 }, { id: 'oa-chat', kind: 'chat' }] },
        { id: 'gpu', type: 'comfyui', models: [{ id: 'gpu-sd', kind: 'image' }, { id: 'gpu-custom', kind: 'image', workflow: DEFAULT_TXT2IMG, defaults: { width: 1024, height: 1024 } }] },
        { id: 'rep', type: 'replicate', apiKey: 'r8', models: [{ id: 'rep-music', kind: 'music', remoteModel: 'meta/musicgen' }] },
      ],
      { ATELIER_MODEL_PRICES: JSON.stringify({ 'oa-chat': 1 }) },
    );
    const models = configuredModels(settings);
    const list = models.list();
    expect(list[0]!.engine).toBe('builtin');
    expect(models.defaultFor('image')!.engine).toBe('builtin');
    expect(models.find('oa-image')!.descriptor).toMatchObject({ engine: 'openai', price: 4, priceUnit: 'image', limits: { n: { min: 1, max: 1 } }, defaults: { width: 1024 }, timeoutMs: 120_000 });
    expect(models.find('oa-video')!.descriptor).toMatchObject({ price: 10, priceUnit: 'video', timeoutMs: 900_000, limits: { durationSec: { min: 4, max: 12 } } });
    expect(models.find('oa-chat')!.descriptor).toMatchObject({ price: 1, priceUnit: 'request', capabilities: ['chat', 'streaming'] });
    expect(models.find('gpu-sd')!.descriptor).toMatchObject({ engine: 'comfyui', capabilities: ['text-to-image', 'image-to-image'], defaults: { width: 512 } });
    // A workflow of the operator's own without an edit workflow: no image-to-image.
    expect(models.find('gpu-custom')!.descriptor).toMatchObject({ capabilities: ['text-to-image'], defaults: { width: 1024, height: 1024 } });
    expect(models.find('rep-music')!.descriptor).toMatchObject({ engine: 'replicate', price: 5, priceUnit: 'track', displayName: 'meta/musicgen' });
  });

  it('refuses an id a built-in model already has', () => {
    const settings = load([{ id: 'oa', type: 'openai', models: [{ id: 'atelier-procedural-image-1', kind: 'image' }] }]);
    expect(() => configuredModels(settings)).toThrow(/listed twice/);
  });
});
