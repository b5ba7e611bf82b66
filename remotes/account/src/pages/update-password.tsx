import { useCallback, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '@atelier/api';
import { ForgotPasswordBody, UpdatePasswordBody, type SessionResponse } from '@atelier/api/schemas';
import { toast } from '@atelier/events';
import { LocaleLink, useLocalePath } from '@atelier/i18n';
import { useSession } from '@atelier/session';
import { Button, FormAlert, TextField } from '@atelier/ui';
import { NAMESPACE } from '../remote.ts';
import { ROUTES } from '../routes.ts';
import { apiErrorMessage, fieldErrors } from '../forms.ts';
import { applySession } from '../session-actions.ts';
import { BotChallenge } from '../bot-challenge.tsx';
import styles from './auth.module.css';

/** Without a link token and signed out: ask for the email and send the reset link. */
function RequestLink() {
  const { t } = useTranslation(NAMESPACE);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [botToken, setBotToken] = useState<string | null>(null);
  const onBotToken = useCallback((token: string | null) => setBotToken(token), []);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const parsed = ForgotPasswordBody.safeParse({ email });
    if (!parsed.success) return setError(t('auth.invalidEmail'));
    setError(null);
    setBusy(true);
    try {
      await api('/api/auth/forgot-password', { method: 'POST', body: { ...parsed.data, ...(botToken ? { botChallengeToken: botToken } : {}) } });
      setSentTo(parsed.data.email);
    } catch (err) {
      setFormError(apiErrorMessage(t, err));
    } finally {
      setBusy(false);
    }
  };
  if (sentTo) return <p className={styles.done} role="status">{t('auth.linkSent', { email: sentTo })}</p>;
  return (
    <form onSubmit={submit} noValidate>
      <p className={styles.lead}>{t('auth.forgotLead')}</p>
      <FormAlert message={formError} />
      <TextField label={t('auth.email')} type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={error} required />
      <BotChallenge onToken={onBotToken} />
      <Button type="submit" variant="primary" className={styles.submit} disabled={busy}>
        {busy ? t('auth.sending') : t('auth.sendLink')}
      </Button>
    </form>
  );
}

/** With the emailed token, or signed in with the current password: set a new one. */
function NewPassword({ token }: { token: string | null }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const to = useLocalePath();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const parsed = UpdatePasswordBody.safeParse(token ? { token, password } : { currentPassword: current, password });
    const found = parsed.success ? {} : fieldErrors(parsed.error, { password: 'auth.passwordTooShort', currentPassword: 'auth.passwordRequired', token: 'auth.linkInvalid' });
    if (password !== confirm) found.confirm = 'auth.passwordsDiffer';
    setErrors(found);
    if (!parsed.success || found.confirm) return;
    setBusy(true);
    try {
      applySession(await api<SessionResponse>('/api/auth/update-password', { method: 'POST', body: parsed.data }));
      toast('success', t('auth.passwordSaved'));
      navigate(to('/dashboard'), { replace: true });
    } catch (err) {
      setFormError(apiErrorMessage(t, err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <FormAlert message={formError ?? (errors.token ? t(errors.token) : null)} />
      {token ? null : (
        <TextField label={t('auth.currentPassword')} type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={errors.currentPassword ? t(errors.currentPassword) : null} required />
      )}
      <TextField label={t('auth.newPassword')} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint={t('auth.passwordHint')} error={errors.password ? t(errors.password) : null} required />
      <TextField label={t('auth.confirmPassword')} type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm ? t(errors.confirm) : null} required />
      <Button type="submit" variant="primary" className={styles.submit} disabled={busy}>
        {busy ? t('auth.saving') : t('auth.savePassword')}
      </Button>
    </form>
  );
}

export default function UpdatePasswordPage() {
  const { t } = useTranslation(NAMESPACE);
  const [params] = useSearchParams();
  const token = params.get('token');
  const signedIn = useSession((s) => s.status === 'authenticated');
  return (
    <section className={styles.card} aria-labelledby="password-title">
      <h1 id="password-title">{t('pages.updatePassword.title')}</h1>
      {token || signedIn ? <NewPassword token={token} /> : <RequestLink />}
      <div className={styles.links}>
        <LocaleLink to={`/${ROUTES.login}`}>{t('auth.backToSignIn')}</LocaleLink>
      </div>
    </section>
  );
}
