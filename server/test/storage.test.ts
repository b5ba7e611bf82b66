import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGenerationSettings } from '../src/config.ts';
import { createLocalStorage } from '../src/storage/localStorage.ts';
import { readAll, type MediaStorage } from '../src/storage/mediaStorage.ts';
import { createS3Storage, signRequest } from '../src/storage/s3Storage.ts';
import { call, signUp } from './support/http.ts';
import { FakeS3 } from './support/fakeS3.ts';
import { FAKE_MEDIA, Script, scriptedModels } from './support/scriptedEngines.ts';
import { startTestServer } from './support/testServer.ts';

const EXAMPLE = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' };
const text = (s: ReadableStream<Uint8Array> | null) => new Response(s).text();

describe('AWS Signature Version 4', () => {
  // The worked examples of Amazon's S3 documentation ("Signature Calculations for the
  // Authorization Header"), with their published signatures.
  it('signs the documentation’s GET Object example', () => {
    const headers = signRequest({
      ...EXAMPLE,
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('signs the documentation’s PUT Object example (a $ in the key)', () => {
    const headers = signRequest({
      ...EXAMPLE,
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: { date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
      payloadHash: '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072',
      now: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers.authorization).toContain('SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class');
    expect(headers.authorization).toContain('Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });
});

function storageContract(name: string, make: () => Promise<{ storage: MediaStorage; done: () => Promise<void> }>) {
  describe(name, () => {
    let storage: MediaStorage;
    let done: () => Promise<void>;
    beforeAll(async () => ({ storage, done } = await make()));
    afterAll(() => done());

    it('stores, reads whole or by range, and deletes', async () => {
      await storage.put('tasks/t1/a.mp4', FAKE_MEDIA, 'video/mp4');
      expect(await readAll(storage, 'tasks/t1/a.mp4')).toEqual(FAKE_MEDIA);
      const part = new Uint8Array(await new Response(await storage.read('tasks/t1/a.mp4', { start: 10, end: 19 })).arrayBuffer());
      expect(part).toEqual(FAKE_MEDIA.slice(10, 20));
      await storage.put('tasks/t1/a.mp4', new TextEncoder().encode('replaced'), 'text/plain');
      expect(await text(await storage.read('tasks/t1/a.mp4'))).toBe('replaced');
      await storage.delete('tasks/t1/a.mp4');
      expect(await storage.read('tasks/t1/a.mp4')).toBeNull();
      await storage.delete('tasks/t1/a.mp4');
    });

    it('refuses keys that could leave the storage', async () => {
      for (const key of ['../x', 'tasks/../../x', '/abs', 'a//b']) await expect(storage.put(key, new Uint8Array(1), 'x/y')).rejects.toThrow(/bad storage key/);
    });
  });
}

storageContract('local media storage', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-media-'));
  return { storage: createLocalStorage(dir), done: async () => rmSync(dir, { recursive: true, force: true }) };
});

storageContract('S3-compatible media storage (local stand-in)', async () => {
  const s3 = new FakeS3(EXAMPLE);
  await s3.start();
  return { storage: createS3Storage({ ...EXAMPLE, endpoint: s3.url, bucket: 'media', pathStyle: true }), done: () => s3.stop() };
});

describe('tasks on S3 storage', () => {
  it('keeps outputs in the bucket and serves them through /api/media', async () => {
    const s3 = new FakeS3(EXAMPLE);
    await s3.start();
    const settings = { ...loadGenerationSettings({}), s3: { ...EXAMPLE, endpoint: s3.url, bucket: 'media', pathStyle: true } };
    const server = await startTestServer('pglite', { generation: settings }, { models: scriptedModels(new Script()) });
    try {
      await server.services.generation.start();
      const user = await signUp(server);
      const res = await call(server, '/api/tasks/music', { cookie: user.cookie, body: { model: 'scripted-music', prompt: 'rain' } });
      let task = res.body;
      for (let i = 0; i < 200 && task.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 25));
        task = (await call(server, `/api/tasks/${task.id}`, { cookie: user.cookie })).body;
      }
      expect(task.status).toBe('completed');
      expect([...s3.objects.keys()]).toEqual([`/media/tasks/${task.id}/${task.outputs[0].id}.mp3`]);
      const part = await server.app.request(task.outputs[0].url, { headers: { cookie: user.cookie, range: 'bytes=5-9' } });
      expect(part.status).toBe(206);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(FAKE_MEDIA.slice(5, 10));
      await call(server, `/api/tasks/${task.id}`, { method: 'DELETE', cookie: user.cookie });
      expect(s3.objects.size).toBe(0);
    } finally {
      await server.close();
      await s3.stop();
    }
  }, 120_000);
});
