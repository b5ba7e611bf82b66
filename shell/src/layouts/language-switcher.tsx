import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, localePath, splitLocalePath, useLocale } from '@atelier/i18n';
import { toast } from '@atelier/events';
import { useShell } from '../shell-context.tsx';

/** Each language in its own name; switching keeps the route and swaps the prefix. */
export function LanguageSwitcher() {
  const { t } = useTranslation('shell');
  const id = useId();
  const { language } = useLocale();
  const location = useLocation();
  const navigate = useNavigate();
  const shell = useShell();
  return (
    <span>
      <label htmlFor={id} className="visually-hidden">
        {t('language.label')}
      </label>
      <select
        id={id}
        value={language}
        data-testid="language-switcher"
        onChange={async (e) => {
          const next = e.target.value;
          if (!isLanguage(next)) return;
          const { path } = splitLocalePath(location.pathname);
          await shell.changeLanguage(next);
          navigate(localePath(next === 'en' ? null : next, path) + location.search + location.hash);
          toast('success', shell.i18n.instance.t('common:success.LANGUAGE_CHANGED', { lng: next }));
        }}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
    </span>
  );
}
