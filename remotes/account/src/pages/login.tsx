import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import { LoginBody, type SessionResponse } from '@atelier/api/schemas';
import { toast } from '@atelier/events';
import { LocaleLink, useLocalePath } from '@atelier/i18n';
import { Button, FormAlert, TextField } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import { ROUTES } from '../routes.ts';
import { apiErrorMessage, fieldErrors, safeNext } from '../forms.ts';
import { applySession } from '../session-actions.ts';
import { ProviderButtons } from '../providers.tsx';
import { BotChallenge } from '../bot-challenge.tsx';
import styles from './auth.module.css';

export default function LoginPage() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const to = useLocalePath();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [botToken, setBotToken] = useState<string | null>(null);
  const onBotToken = useCallback((token: string | null) => setBotToken(token), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const parsed = LoginBody.safeParse({ email, password });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error, { email: 'auth.invalidEmail', password: 'auth.passwordRequired' }));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      applySession(await api<SessionResponse>('/api/auth/login', { method: 'POST', body: { ...parsed.data, ...(botToken ? { botChallengeToken: botToken } : {}) } }));
      toast('success', t('common:success.LOGIN_SUCCESS'));
      navigate(to(safeNext(params.get('next')) ?? '/dashboard'), { replace: true });
    } catch (err) {
      setFormError(apiErrorMessage(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.card} aria-labelledby="login-title">
      <h1 id="login-title">{t('pages.login.title')}</h1>
      <p className={styles.lead}>{t('pages.login.lead')}</p>
      <form onSubmit={submit} noValidate>
        <FormAlert message={formError} />
        <TextField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email ? t(errors.email) : null} required />
        <TextField label={t('auth.password')} type="password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={errors.password ? t(errors.password) : null} required />
        <BotChallenge onToken={onBotToken} />
        <Button type="submit" variant="primary" className={styles.submit} disabled={busy}>
          {busy ? t('auth.signingIn') : t('auth.signIn')}
        </Button>
      </form>
      <ProviderButtons returnTo={to(safeNext(params.get('next')) ?? '/dashboard')} />
      <div className={styles.links}>
        <LocaleLink to={`/${ROUTES.updatePassword}`}>{t('auth.forgot')}</LocaleLink>
        <span>
          {t('auth.noAccount')} <LocaleLink to={`/${ROUTES.register}`}>{t('auth.createAccount')}</LocaleLink>
        </span>
      </div>
    </section>
  );
}
