import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import { useDefaultModel } from '@atelier/api/react';
import { VideoTaskBody, type Task, type VideoStyle } from '@atelier/api/schemas';
import { bus, toast } from '@atelier/events';
import { useLocalePath } from '@atelier/i18n';
import { sessionStore } from '@atelier/session';
import { Button, FormAlert } from '@atelier/ui';
import { NAMESPACE, REMOTE_NAME } from '../remote.ts';
import styles from './video.module.css';

const STYLES: VideoStyle[] = ['cinematic', 'animation', 'realistic', 'documentary', 'abstract'];

export default function CreateVideoPage() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const to = useLocalePath();
  const model = useDefaultModel('video');
  const [prompt, setPrompt] = useState('');
  const [style, setStyle] = useState<VideoStyle>('cinematic');
  const [seconds, setSeconds] = useState(5);
  const [visibility, setVisibility] = useState<'private' | 'public'>('private');
  const [promptError, setPromptError] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (!prompt.trim()) {
      setPromptError(true);
      return;
    }
    setPromptError(false);
    const parsed = VideoTaskBody.safeParse({ model: model.data ?? '', prompt, style, durationSec: seconds, visibility });
    if (!parsed.success || !model.data) return setFormError(t('common:errors.VIDEO_GENERATE_FAILED'));
    setBusy(true);
    try {
      const task = await api<Task>('/api/tasks/videos', { method: 'POST', body: parsed.data, headers: { 'Idempotency-Key': crypto.randomUUID() } });
      sessionStore.getState().setCredits(Math.max(0, sessionStore.getState().credits - task.cost), REMOTE_NAME);
      bus.emit('task:submitted', { taskId: task.id, kind: 'video', source: REMOTE_NAME });
      toast('success', t('create.submitted'));
      navigate(to(`/dashboard/video/${task.id}`));
    } catch (err) {
      const code = (err as { code?: string }).code;
      setFormError(t(`common:errors.${code === 'INSUFFICIENT_BALANCE' || code === 'VIDEO_PROMPT_REQUIRED' || code === 'RATE_LIMITED' ? code : 'VIDEO_GENERATE_FAILED'}`));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.page} aria-labelledby="create-title">
      <h1 id="create-title">{t('pages.create.title')}</h1>
      <p className={styles.lead}>{t('pages.create.lead')}</p>
      <form onSubmit={submit} noValidate>
        <FormAlert message={formError} />
        <div className={styles.field}>
          <label htmlFor="video-prompt">{t('create.prompt')}</label>
          <textarea
            id="video-prompt"
            name="prompt"
            value={prompt}
            maxLength={4000}
            placeholder={t('create.promptPlaceholder')}
            aria-invalid={promptError || undefined}
            aria-describedby={promptError ? 'video-prompt-error' : undefined}
            onChange={(e) => setPrompt(e.target.value)}
          />
          {promptError ? (
            <small id="video-prompt-error" className={styles.error} role="alert">
              {t('common:errors.VIDEO_PROMPT_REQUIRED')}
            </small>
          ) : null}
        </div>
        <fieldset className={styles.styles}>
          <legend className={styles.field}>{t('create.style')}</legend>
          {STYLES.map((s) => (
            <label key={s}>
              <input type="radio" name="style" value={s} checked={style === s} onChange={() => setStyle(s)} />
              <span>{t(`styles.${s}`)}</span>
            </label>
          ))}
        </fieldset>
        <div className={styles.row}>
          <div className={styles.field}>
            <label htmlFor="video-seconds">{t('create.duration')}</label>
            <input id="video-seconds" type="number" min={1} max={20} value={seconds} onChange={(e) => setSeconds(Math.min(20, Math.max(1, Number(e.target.value) || 1)))} />
          </div>
          <div className={styles.field}>
            <label htmlFor="video-visibility">{t('visibility.label')}</label>
            <select id="video-visibility" value={visibility} onChange={(e) => setVisibility(e.target.value as 'private' | 'public')}>
              <option value="private">{t('visibility.private')}</option>
              <option value="public">{t('visibility.public')}</option>
            </select>
          </div>
          <Button type="submit" variant="primary" disabled={busy || model.isPending}>
            {busy ? t('create.submitting') : t('create.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
