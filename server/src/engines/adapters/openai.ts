/**
 * OpenAI-compatible backends (OpenAI itself, or any server that speaks its API; the base URL ends
 * in `/v1`, as for the openai SDK): pictures from `/images/generations` and `/images/edits`,
 * streamed chat from `/chat/completions`, videos from `/videos` (create, poll, download).
 */
import type { ChatChunk, ChatEngine, ImageEngine, ImageRequest, OutputFile, VideoEngine } from '../types.ts';
import { BackendHttp, preview, type BackendEndpoint, type IdleWatch } from './backendHttp.ts';
import { decodeBase64, outputFileOf, sniffMedia } from './media.ts';
import { fillTemplate, type TemplateValues } from './placeholders.ts';
import { ProgressReporter } from './progress.ts';
import type { BackendModelSettings } from './settings.ts';
import { imageValues, pictureSize, styledPrompt, videoValues } from './requests.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The operator's extra fields for each request (`input`), placeholders filled. */
const extra = (model: BackendModelSettings, values: TemplateValues): Json => (model.input ? fillTemplate(model.input, values) : {});

export function openAIImageEngine(endpoint: BackendEndpoint, model: BackendModelSettings): ImageEngine {
  const http = new BackendHttp(endpoint, 'IMAGE_GENERATE_FAILED');
  const remote = model.remoteModel ?? model.id;
  // GPT Image models always answer in base64 and refuse the parameter.
  const format = /^gpt-image/i.test(remote) ? {} : { response_format: 'b64_json' };

  async function pictures(answer: unknown, n: number, signal: AbortSignal): Promise<OutputFile[]> {
    const data = isObject(answer) ? answer.data : undefined;
    if (!Array.isArray(data) || data.length === 0) throw http.bad('answered without pictures (no data[])');
    const files: OutputFile[] = [];
    for (const item of data.slice(0, n)) {
      if (isObject(item) && typeof item.b64_json === 'string') files.push(outputFileOf(http, decodeBase64(http, item.b64_json, 'data[].b64_json'), 'image'));
      else if (isObject(item) && typeof item.url === 'string') {
        const file = await http.download(item.url, signal);
        files.push(outputFileOf(http, file.body, 'image', file.contentType));
      } else throw http.bad('a picture has neither b64_json nor url');
    }
    if (files.length < n) throw http.bad(`asked for ${n} pictures, got ${files.length}`);
    return files;
  }

  const size = (req: ImageRequest) => (req.width > 0 && req.height > 0 ? { size: `${req.width}x${req.height}` } : {});

  return {
    kind: 'image',
    async generate(req, ctx) {
      const progress = new ProgressReporter(ctx);
      const body = { model: remote, prompt: req.prompt, n: req.n, ...size(req), ...format, ...extra(model, imageValues(req, remote)) };
      // The whole picture comes in one answer: no byte for a long while is normal.
      const answer = await http.json('/images/generations', ctx.signal, { json: body, idleTimeoutMs: null });
      const files = await pictures(answer, req.n, ctx.signal);
      progress.done();
      return files;
    },
    async edit(req, ctx) {
      const progress = new ProgressReporter(ctx);
      const type = sniffMedia(req.image);
      const form = new FormData();
      const fields: Json = { model: remote, prompt: req.prompt, n: req.n, ...size(req), ...format, ...extra(model, imageValues(req, remote, pictureSize(req))) };
      for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '') form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      form.set('image', new Blob([req.image as Uint8Array<ArrayBuffer>], { type: type?.contentType ?? 'image/png' }), `image.${type?.extension ?? 'png'}`);
      const answer = await http.json('/images/edits', ctx.signal, { form, idleTimeoutMs: null });
      const files = await pictures(answer, req.n, ctx.signal);
      progress.done();
      return files;
    },
  };
}

export function openAIChatEngine(endpoint: BackendEndpoint, model: BackendModelSettings): ChatEngine {
  const http = new BackendHttp(endpoint, 'SYSTEM_ERROR');
  const remote = model.remoteModel ?? model.id;
  return {
    kind: 'chat',
    async *complete(req, ctx): AsyncGenerator<ChatChunk> {
      const body = {
        model: remote,
        messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
        stream: true,
        stream_options: { include_usage: true },
        ...(req.maxTokens ? { max_tokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.seed !== undefined ? { seed: req.seed } : {}),
        ...(model.input ?? {}),
      };
      const { response, watch } = await http.open('/chat/completions', ctx.signal, { json: body, headers: { accept: 'text/event-stream' } });
      const promptChars = req.messages.reduce((sum, m) => sum + m.content.length, 0);
      try {
        if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          // A server that ignores `stream` answers whole.
          yield* wholeAnswer(http, http.parse(await http.readAll(response, watch, 16 * 1024 * 1024)));
          return;
        }
        let finish: string | null = null;
        let usage: { promptTokens: number; completionTokens: number } | null = null;
        let text = 0;
        let ended = false;
        for await (const data of serverSentData(http, response, watch, ctx.signal)) {
          if (data === '[DONE]') {
            ended = true;
            break;
          }
          const chunk = parseChunk(http, data);
          if (isObject(chunk.error)) throw http.bad(`stopped with an error: ${String(chunk.error.message ?? preview(JSON.stringify(chunk.error)))}`);
          const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : null;
          const delta = choice && isObject(choice.delta) ? choice.delta : null;
          if (delta && typeof delta.content === 'string' && delta.content) {
            text += delta.content.length;
            yield { type: 'delta', text: delta.content };
          }
          if (choice && typeof choice.finish_reason === 'string') finish = choice.finish_reason;
          if (isObject(chunk.usage)) usage = { promptTokens: Number(chunk.usage.prompt_tokens) || 0, completionTokens: Number(chunk.usage.completion_tokens) || 0 };
        }
        if (!ended && finish === null) throw http.down('the stream ended before the answer did');
        yield { type: 'done', finishReason: finish === 'length' ? 'length' : 'stop', usage: usage ?? { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(text / 4) } };
      } finally {
        watch.stop();
      }
    },
  };
}

function parseChunk(http: BackendHttp, data: string): Json {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    throw http.bad(`streamed something that is not JSON (${preview(data)})`);
  }
  if (!isObject(chunk)) throw http.bad(`streamed something that is not a chunk (${preview(data)})`);
  return chunk;
}

function* wholeAnswer(http: BackendHttp, answer: unknown): Generator<ChatChunk> {
  const choice = isObject(answer) && Array.isArray(answer.choices) && isObject(answer.choices[0]) ? answer.choices[0] : null;
  const message = choice && isObject(choice.message) ? choice.message : null;
  if (!message || typeof message.content !== 'string') throw http.bad('answered without choices[0].message.content');
  if (message.content) yield { type: 'delta', text: message.content };
  const usage = isObject(answer) && isObject(answer.usage) ? answer.usage : {};
  yield {
    type: 'done',
    finishReason: choice?.finish_reason === 'length' ? 'length' : 'stop',
    usage: { promptTokens: Number(usage.prompt_tokens) || 0, completionTokens: Number(usage.completion_tokens) || 0 },
  };
}

/** The `data:` payloads of a server-sent-event stream, one per event (multi-line data joined). */
export async function* serverSentData(
  http: BackendHttp,
  response: Response,
  watch: IdleWatch,
  signal: AbortSignal,
): AsyncGenerator<string> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw http.wireError(err, signal, watch);
      }
      if (chunk.done) break;
      watch.touch();
      buffer = (buffer + chunk.value).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data) yield data;
      }
    }
  } finally {
    // Also when the reader stops early: the connection is let go.
    await reader.cancel().catch(() => undefined);
  }
}

export function openAIVideoEngine(endpoint: BackendEndpoint, model: BackendModelSettings): VideoEngine {
  const http = new BackendHttp(endpoint, 'VIDEO_GENERATE_FAILED');
  const remote = model.remoteModel ?? model.id;
  return {
    kind: 'video',
    async generate(req, ctx) {
      const progress = new ProgressReporter(ctx);
      const form = new FormData();
      const fields: Json = {
        model: remote,
        prompt: styledPrompt(req),
        seconds: String(Math.round(req.durationSec)),
        size: `${req.width}x${req.height}`,
        ...extra(model, videoValues(req, remote)),
      };
      for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== '') form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      let video = videoJob(http, await http.json('/videos', ctx.signal, { form }));
      const path = `/videos/${encodeURIComponent(video.id)}`;
      while (video.status !== 'completed') {
        if (video.status === 'failed') throw http.bad(`the video failed: ${video.error ?? 'no reason given'}`);
        if (video.progress !== null) progress.report(video.progress * 0.95);
        await http.pause(ctx.signal);
        video = videoJob(http, await http.json(path, ctx.signal));
      }
      const content = await http.send(`${path}/content`, ctx.signal);
      const file = outputFileOf(http, content.body, 'video', content.contentType);
      progress.done();
      return { ...file, width: req.width, height: req.height, durationMs: Math.round(req.durationSec * 1000) };
    },
  };
}

const VIDEO_STATUSES = ['queued', 'in_progress', 'completed', 'failed'];

function videoJob(http: BackendHttp, answer: unknown): { id: string; status: string; progress: number | null; error: string | null } {
  if (!isObject(answer) || typeof answer.id !== 'string' || !answer.id) throw http.bad('answered without a video id');
  if (typeof answer.status !== 'string' || !VIDEO_STATUSES.includes(answer.status)) throw http.bad(`gave the video an unknown status (${preview(String(answer.status))})`);
  const error = isObject(answer.error) && typeof answer.error.message === 'string' ? answer.error.message : null;
  return { id: answer.id, status: answer.status, progress: typeof answer.progress === 'number' ? answer.progress / 100 : null, error };
}
