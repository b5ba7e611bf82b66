import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import { useDefaultModel } from '@atelier/api/react';
import type { Task } from '@atelier/api/schemas';
import { bus } from '@atelier/events';
import { sessionStore } from '@atelier/session';
import { Button, FormAlert } from '@atelier/ui';
import { GenerationResult } from './generation-result.tsx';
import { NAMESPACE, REMOTE_NAME } from './remote.ts';
import styles from './pages/image.module.css';

const SIZES = ['1024x1024', '768x768', '512x512', '1344x768', '768x1344'] as const;

export interface ImageSettings {
  model: string;
  prompt: string;
  negativePrompt?: string;
  width: number;
  height: number;
  n: number;
  seed?: number;
}

/**
 * The form both image pages share: prompt, negative prompt, size, count and seed, plus what a
 * page adds (the upload for image-to-image). `send` makes the request; this handles the rest.
 */
export function ImageForm({ extra, send, canSubmit = () => null }: { extra?: ReactNode; send: (settings: ImageSettings) => Promise<Task>; canSubmit?: () => string | null }) {
  const { t } = useTranslation(NAMESPACE);
  const model = useDefaultModel('image');
  const [prompt, setPrompt] = useState('');
  const [negative, setNegative] = useState('');
  const [size, setSize] = useState<(typeof SIZES)[number]>('1024x1024');
  const [n, setN] = useState(1);
  const [seed, setSeed] = useState('');
  const [promptError, setPromptError] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    setPromptError(!prompt.trim());
    const extraError = canSubmit();
    if (!prompt.trim() || extraError) return setFormError(extraError);
    if (!model.data) return setFormError(t('common:errors.UNKNOWN_MODEL'));
    if (!sessionStore.getState().requireLogin()) return;
    setBusy(true);
    try {
      const [width, height] = size.split('x').map(Number) as [number, number];
      const task = await send({ model: model.data, prompt: prompt.trim(), ...(negative.trim() ? { negativePrompt: negative.trim() } : {}), width, height, n, ...(seed ? { seed: Number(seed) } : {}) });
      sessionStore.getState().setCredits(Math.max(0, sessionStore.getState().credits - task.cost), REMOTE_NAME);
      bus.emit('task:submitted', { taskId: task.id, kind: 'image', source: REMOTE_NAME });
      setTaskId(task.id);
    } catch (err) {
      const code = (err as { code?: string }).code;
      // The seed's message for images when the balance is too low.
      setFormError(t(`common:errors.${code === 'INSUFFICIENT_BALANCE' ? 'CREDITS_NOT_ENOUGH' : code === 'UNKNOWN_MODEL' || code === 'RATE_LIMITED' ? code : 'IMAGE_GENERATE_FAILED'}`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.layout}>
      <form onSubmit={submit} noValidate>
        <FormAlert message={formError} />
        {extra}
        <div className={styles.field}>
          <label htmlFor="image-prompt">{t('form.prompt')}</label>
          <textarea id="image-prompt" value={prompt} maxLength={4000} placeholder={t('form.promptPlaceholder')} aria-invalid={promptError || undefined} aria-describedby={promptError ? 'image-prompt-error' : undefined} onChange={(e) => setPrompt(e.target.value)} />
          {promptError ? (
            <small id="image-prompt-error" className={styles.error}>
              {t('form.promptRequired')}
            </small>
          ) : null}
        </div>
        <div className={styles.field}>
          <label htmlFor="image-negative">{t('form.negative')}</label>
          <textarea id="image-negative" value={negative} maxLength={2000} onChange={(e) => setNegative(e.target.value)} style={{ minHeight: 60 }} />
        </div>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor="image-size">{t('form.size')}</label>
            <select id="image-size" value={size} onChange={(e) => setSize(e.target.value as (typeof SIZES)[number])}>
              {SIZES.map((s) => (
                <option key={s} value={s}>
                  {s.replace('x', ' × ')}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label htmlFor="image-count">{t('form.count')}</label>
            <select id="image-count" value={n} onChange={(e) => setN(Number(e.target.value))}>
              {[1, 2, 3, 4].map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className={styles.field}>
          <label htmlFor="image-seed">{t('form.seed')}</label>
          <input id="image-seed" type="number" min={0} max={4294967295} value={seed} onChange={(e) => setSeed(e.target.value)} aria-describedby="image-seed-hint" />
          <small id="image-seed-hint" className={styles.hint}>
            {t('form.seedHint')}
          </small>
        </div>
        <Button type="submit" variant="primary" disabled={busy || model.isPending}>
          {busy ? t('form.submitting') : t('form.submit', { count: n })}
        </Button>
      </form>
      <section className={styles.results} aria-label={t('result.label')} data-state={taskId ? 'done' : 'empty'}>
        {taskId ? <GenerationResult key={taskId} taskId={taskId} /> : <p className={styles.empty}>{t('result.empty')}</p>}
      </section>
    </div>
  );
}

export const jsonHeaders = () => ({ 'Idempotency-Key': crypto.randomUUID() });
export const postImage = (settings: ImageSettings) => api<Task>('/api/tasks/images', { method: 'POST', body: settings, headers: jsonHeaders() });
