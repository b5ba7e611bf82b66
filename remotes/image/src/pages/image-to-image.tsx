import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import type { Task } from '@atelier/api/schemas';
import { ImageForm, jsonHeaders, type ImageSettings } from '../image-form.tsx';
import { NAMESPACE } from '../remote.ts';
import styles from './image.module.css';

const ACCEPTED = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_BYTES = 20 * 1024 * 1024;

export default function ImageToImagePage() {
  const { t } = useTranslation(NAMESPACE);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [strength, setStrength] = useState(0.6);
  useEffect(() => {
    if (!file) return setPreview(null);
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  const send = (s: ImageSettings) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(s)) if (v !== undefined) form.append(k, String(v));
    form.append('strength', String(strength));
    form.append('image', file!);
    return api<Task>('/api/tasks/images/edits', { method: 'POST', body: form, headers: jsonHeaders() });
  };
  const check = () => (!file ? t('form.imageRequired') : !ACCEPTED.includes(file.type) ? t('form.imageType') : file.size > MAX_BYTES ? t('form.imageTooLarge') : null);
  const upload = (
    <>
      <div className={styles.field}>
        <label htmlFor="image-upload">{t('form.image')}</label>
        <input id="image-upload" type="file" accept={ACCEPTED.join(',')} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        {preview ? <img className={styles.preview} src={preview} alt={t('form.imagePreview')} /> : null}
      </div>
      <div className={styles.field}>
        <label htmlFor="image-strength">{t('form.strength', { value: Math.round(strength * 100) })}</label>
        <input id="image-strength" type="range" min={0} max={1} step={0.05} value={strength} onChange={(e) => setStrength(Number(e.target.value))} aria-describedby="image-strength-hint" />
        <small id="image-strength-hint" className={styles.hint}>
          {t('form.strengthHint')}
        </small>
      </div>
    </>
  );
  return (
    <section className={styles.page} aria-labelledby="i2i-title">
      <h1 id="i2i-title">{t('pages.imageToImage.title')}</h1>
      <p className={styles.lead}>{t('pages.imageToImage.lead')}</p>
      <ImageForm send={send} extra={upload} canSubmit={check} />
    </section>
  );
}
