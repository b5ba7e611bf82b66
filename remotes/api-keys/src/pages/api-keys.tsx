import { useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ApiKey, CreatedApiKey } from '@atelier/api/schemas';
import { toast } from '@atelier/events';
import { formatDate, useLocale } from '@atelier/i18n';
import { Button, FormAlert, Spinner, TextField } from '@atelier/ui';
import { apiKeysClient } from '../api-keys-client.ts';
import { NAMESPACE } from '../remote.ts';
import styles from './api-keys.module.css';

const KEYS = ['api-keys'] as const;

/** The secret, shown once right after creation, with a copy button. */
function NewSecret({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      toast('success', t('common:success.API_KEY_COPIED'));
    } catch {
      toast('error', t('common:errors.COPY_API_KEY_FAILED'));
    }
  };
  return (
    <section className={styles.secret} aria-labelledby="new-secret-title" data-testid="new-secret">
      <h2 id="new-secret-title">{t('created.title')}</h2>
      <p>{t('created.once')}</p>
      <code data-testid="secret-value">{created.secret}</code>
      <div className={styles.row}>
        <Button variant="primary" onClick={copy}>
          {t('actions.copy')}
        </Button>
        <Button onClick={onDone}>{t('created.done')}</Button>
      </div>
    </section>
  );
}

function KeyRow({ item, onDelete }: { item: ApiKey; onDelete: (key: ApiKey) => void }) {
  const { t } = useTranslation(NAMESPACE);
  const { language } = useLocale();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => apiKeysClient.setStatus(item.id, item.status === 'active' ? 'inactive' : 'active'),
    onSuccess: (updated) => {
      queryClient.setQueryData<ApiKey[]>(KEYS, (list) => list?.map((k) => (k.id === updated.id ? updated : k)));
      toast('success', t(updated.status === 'active' ? 'common:success.API_KEY_ACTIVATED' : 'common:success.API_KEY_DEACTIVATED'));
    },
    onError: () => toast('error', t('common:errors.UPDATE_API_KEY_STATUS_FAILED')),
  });
  const name = item.name ?? t('unnamed');
  return (
    <tr data-key-id={item.id}>
      <th scope="row">{item.name ? item.name : <span className={styles.unnamed}>{t('unnamed')}</span>}</th>
      <td>
        <code>{item.maskedKey}</code>
      </td>
      <td>
        <span className={`${styles.badge} ${styles[item.status]}`}>{t(`status.${item.status}`)}</span>
      </td>
      <td>{formatDate(language, item.createdAt)}</td>
      <td>{item.lastUsedAt ? formatDate(language, item.lastUsedAt) : t('never')}</td>
      <td>
        <div className={styles.actions}>
          <Button onClick={() => toggle.mutate()} disabled={toggle.isPending} aria-label={t(item.status === 'active' ? 'actions.deactivateNamed' : 'actions.activateNamed', { name })}>
            {t(item.status === 'active' ? 'actions.deactivate' : 'actions.activate')}
          </Button>
          <Button onClick={() => onDelete(item)} aria-label={t('actions.deleteNamed', { name })}>
            {t('actions.delete')}
          </Button>
        </div>
      </td>
    </tr>
  );
}

export default function ApiKeysPage() {
  const { t } = useTranslation(NAMESPACE);
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: KEYS, queryFn: apiKeysClient.list });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const [pendingDelete, setPendingDelete] = useState<ApiKey | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const create = useMutation({
    mutationFn: () => apiKeysClient.create(name),
    onSuccess: (result) => {
      setCreated(result);
      setName('');
      setCreateError(null);
      queryClient.setQueryData<ApiKey[]>(KEYS, (list) => [result.key, ...(list ?? [])]);
    },
    onError: () => setCreateError(t('common:errors.CREATE_API_KEY_FAILED')),
  });
  const remove = useMutation({
    mutationFn: (key: ApiKey) => apiKeysClient.remove(key.id),
    onSuccess: (_r, key) => {
      queryClient.setQueryData<ApiKey[]>(KEYS, (list) => list?.filter((k) => k.id !== key.id));
      toast('success', t('common:success.API_KEY_DELETED'));
    },
    onError: () => toast('error', t('common:errors.DELETE_API_KEY_FAILED')),
  });

  const askDelete = (key: ApiKey) => {
    setPendingDelete(key);
    dialog.current?.showModal();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim().length > 64) return setCreateError(t('nameTooLong'));
    create.mutate();
  };
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  return (
    <section className={styles.page} aria-labelledby="keys-title">
      <h1 id="keys-title">{t('pages.keys.title')}</h1>
      <p className={styles.lead}>{t('pages.keys.lead')}</p>
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      <form className={styles.create} onSubmit={submit}>
        <TextField label={t('nameLabel')} name="name" value={name} maxLength={64} placeholder={t('namePlaceholder')} onChange={(e) => setName(e.target.value)} />
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? t('actions.creating') : t('actions.create')}
        </Button>
      </form>
      <FormAlert message={createError} />
      {keys.isPending ? (
        <Spinner label={t('loading')} />
      ) : keys.isError ? (
        <div role="alert" className={styles.empty}>
          <p>{t('common:errors.FETCH_API_KEYS_FAILED')}</p>
          <Button onClick={() => keys.refetch()}>{t('actions.retry')}</Button>
        </div>
      ) : keys.data.length === 0 ? (
        <p className={styles.empty}>{t('empty')}</p>
      ) : (
        <table className={styles.table}>
          <caption className="visually-hidden">{t('pages.keys.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('columns.name')}</th>
              <th scope="col">{t('columns.key')}</th>
              <th scope="col">{t('columns.status')}</th>
              <th scope="col">{t('columns.created')}</th>
              <th scope="col">{t('columns.lastUsed')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <KeyRow key={k.id} item={k} onDelete={askDelete} />
            ))}
          </tbody>
        </table>
      )}
      <section className={styles.usage} aria-labelledby="usage-title">
        <h2 id="usage-title">{t('usage.title')}</h2>
        <p>{t('usage.body')}</p>
        <pre>
          <code>{`curl ${origin}/v1/models \\\n  -H "Authorization: Bearer $ATELIER_API_KEY"`}</code>
        </pre>
      </section>
      <dialog ref={dialog} className={styles.dialog} aria-labelledby="delete-title" onClose={() => setPendingDelete(null)}>
        <h2 id="delete-title">{t('confirmDelete.title')}</h2>
        <p>{t('confirmDelete.body', { name: pendingDelete?.name ?? t('unnamed') })}</p>
        <div className={styles.row}>
          <Button
            variant="primary"
            onClick={() => {
              if (pendingDelete) remove.mutate(pendingDelete);
              dialog.current?.close();
            }}
          >
            {t('actions.delete')}
          </Button>
          <Button onClick={() => dialog.current?.close()} autoFocus>
            {t('confirmDelete.cancel')}
          </Button>
        </div>
      </dialog>
    </section>
  );
}
