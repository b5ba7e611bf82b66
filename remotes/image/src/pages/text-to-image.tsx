import { useTranslation } from 'react-i18next';
import { ImageForm, postImage } from '../image-form.tsx';
import { NAMESPACE } from '../remote.ts';
import styles from './image.module.css';

export default function TextToImagePage() {
  const { t } = useTranslation(NAMESPACE);
  return (
    <section className={styles.page} aria-labelledby="t2i-title">
      <h1 id="t2i-title">{t('pages.textToImage.title')}</h1>
      <p className={styles.lead}>{t('pages.textToImage.lead')}</p>
      <ImageForm send={postImage} />
    </section>
  );
}
