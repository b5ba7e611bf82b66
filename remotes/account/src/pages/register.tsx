import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import { RegisterBody, type SessionResponse } from '@atelier/api/schemas';
import { toast } from '@atelier/events';
import { LocaleLink, useLocalePath } from '@atelier/i18n';
import { Button, FormAlert, TextField } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import { ROUTES } from '../routes.ts';
import { apiErrorMessage, fieldErrors } from '../forms.ts';
import { applySession } from '../session-actions.ts';
import { ProviderButtons } from '../providers.tsx';
import { BotChallenge } from '../bot-challenge.tsx';
import styles from './auth.module.css';

export default function RegisterPage() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const to = useLocalePath();
  const [name, setName] = useState('');
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
    const parsed = RegisterBody.safeParse({ email, password, ...(name.trim() ? { name } : {}) });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error, { email: 'auth.invalidEmail', password: 'auth.passwordTooShort', name: 'auth.nameInvalid' }));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      applySession(await api<SessionResponse>('/api/auth/register', { method: 'POST', body: { ...parsed.data, ...(botToken ? { botChallengeToken: botToken } : {}) } }));
      toast('success', t('common:success.LOGIN_SUCCESS'));
      navigate(to('/dashboard'), { replace: true });
    } catch (err) {
      setFormError(apiErrorMessage(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.card} aria-labelledby="register-title">
      <h1 id="register-title">{t('pages.register.title')}</h1>
      <p className={styles.lead}>{t('pages.register.lead')}</p>
      <form onSubmit={submit} noValidate>
        <FormAlert message={formError} />
        <TextField label={t('auth.name')} name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name ? t(errors.name) : null} />
        <TextField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email ? t(errors.email) : null} required />
        <TextField label={t('auth.password')} type="password" name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint={t('auth.passwordHint')} error={errors.password ? t(errors.password) : null} required />
        <BotChallenge onToken={onBotToken} />
        <Button type="submit" variant="primary" className={styles.submit} disabled={busy}>
          {busy ? t('auth.creating') : t('auth.createAccount')}
        </Button>
      </form>
      <ProviderButtons returnTo={to('/dashboard')} />
      <div className={styles.links}>
        <span>
          {t('auth.haveAccount')} <LocaleLink to={`/${ROUTES.login}`}>{t('auth.signIn')}</LocaleLink>
        </span>
      </div>
    </section>
  );
}
