import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import type { OAuthProviderList } from '@atelier/api/schemas';
import { NAMESPACE } from './remote.ts';
import styles from './pages/auth.module.css';

/**
 * "Continue with GitHub / Google", for the providers this server is configured for. The buttons
 * navigate (not fetch): the server redirects to the provider and back to /auth/callback.
 */
export function ProviderButtons({ returnTo }: { returnTo: string }) {
  const { t } = useTranslation(NAMESPACE);
  const providers = useQuery({
    queryKey: ['auth-providers'],
    queryFn: async () => (await api<OAuthProviderList>('/api/auth/providers')).providers,
    staleTime: 5 * 60_000,
  });
  if (!providers.data?.length) return null;
  return (
    <div className={styles.providers}>
      <p className={styles.or}>{t('auth.orContinueWith')}</p>
      {providers.data.map((p) => (
        <a key={p.id} className={styles.provider} href={`${p.startUrl}?returnTo=${encodeURIComponent(returnTo)}`} data-provider={p.id}>
          {t('auth.continueWith', { provider: p.name })}
        </a>
      ))}
    </div>
  );
}
