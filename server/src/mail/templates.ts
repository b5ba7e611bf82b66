import type { Language } from '@atelier/i18n/locale';

/**
 * The words of every email the server sends, in each of the ten languages, kept apart from the
 * code that assembles the messages. Placeholders are functions, so a missing language or argument
 * is a type error rather than a blank in someone's inbox.
 */
export interface PasswordResetWords {
  subject: string;
  /** What happened. */
  intro: string;
  /** Introduces the link, which follows on its own line. */
  action: (validMinutes: number) => string;
  /** What to do when it was not them. */
  ignore: string;
}

export const PASSWORD_RESET: Record<Language, PasswordResetWords> = {
  en: {
    subject: 'Reset your Atelier password',
    intro: 'Someone asked to reset the password of your Atelier account.',
    action: (m) => `Set a new password here (the link works once, for ${m} minutes):`,
    ignore: 'If it was not you, ignore this message: your password stays as it is.',
  },
  zh: {
    subject: '重置您的 Atelier 密码',
    intro: '有人请求重置您的 Atelier 账号密码。',
    action: (m) => `请通过以下链接设置新密码（链接仅可使用一次，${m} 分钟内有效）：`,
    ignore: '如果这不是您本人的操作，请忽略此邮件，您的密码不会改变。',
  },
  ru: {
    subject: 'Сброс пароля Atelier',
    intro: 'Кто-то запросил сброс пароля для вашего аккаунта Atelier.',
    action: (m) => `Задайте новый пароль по этой ссылке (она сработает один раз и действительна ${m} мин.):`,
    ignore: 'Если это были не вы, просто проигнорируйте это письмо: ваш пароль останется прежним.',
  },
  de: {
    subject: 'Setze dein Atelier-Passwort zurück',
    intro: 'Jemand hat angefragt, das Passwort deines Atelier-Kontos zurückzusetzen.',
    action: (m) => `Hier kannst du ein neues Passwort festlegen (der Link funktioniert einmal und ist ${m} Minuten gültig):`,
    ignore: 'Falls du das nicht warst, ignoriere diese Nachricht einfach: Dein Passwort bleibt unverändert.',
  },
  fr: {
    subject: 'Réinitialisez votre mot de passe Atelier',
    intro: 'Quelqu’un a demandé la réinitialisation du mot de passe de votre compte Atelier.',
    action: (m) => `Choisissez un nouveau mot de passe ici (le lien ne fonctionne qu’une fois, pendant ${m} minutes)\u00a0:`,
    ignore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message\u00a0: votre mot de passe reste inchangé.',
  },
  ja: {
    subject: 'Atelier のパスワード再設定',
    intro: 'Atelier アカウントのパスワード再設定がリクエストされました。',
    action: (m) => `以下のリンクから新しいパスワードを設定してください（リンクは1回のみ、${m}分間有効です）：`,
    ignore: 'お心当たりがない場合は、このメールを破棄してください。パスワードは変更されません。',
  },
  ko: {
    subject: 'Atelier 비밀번호 재설정',
    intro: 'Atelier 계정의 비밀번호 재설정이 요청되었습니다.',
    action: (m) => `아래 링크에서 새 비밀번호를 설정해 주세요(링크는 한 번만 사용할 수 있으며 ${m}분 동안 유효합니다):`,
    ignore: '본인이 요청하지 않았다면 이 메일을 무시해 주세요. 비밀번호는 변경되지 않습니다.',
  },
  es: {
    subject: 'Restablece tu contraseña de Atelier',
    intro: 'Alguien ha solicitado restablecer la contraseña de tu cuenta de Atelier.',
    action: (m) => `Crea una contraseña nueva aquí (el enlace funciona una sola vez y caduca en ${m} minutos):`,
    ignore: 'Si no has sido tú, ignora este mensaje: tu contraseña seguirá siendo la misma.',
  },
  pt: {
    subject: 'Redefina sua senha do Atelier',
    intro: 'Alguém pediu para redefinir a senha da sua conta do Atelier.',
    action: (m) => `Crie uma nova senha aqui (o link só pode ser usado uma vez e vale por ${m} minutos):`,
    ignore: 'Se não foi você, ignore esta mensagem: sua senha continua a mesma.',
  },
  tr: {
    subject: 'Atelier şifrenizi sıfırlayın',
    intro: 'Atelier hesabınızın şifresini sıfırlamak için bir istek aldık.',
    action: (m) => `Yeni şifrenizi buradan belirleyin (bağlantı yalnızca bir kez ve ${m} dakika boyunca geçerlidir):`,
    ignore: 'Bu isteği siz yapmadıysanız bu mesajı dikkate almayın: şifreniz değişmeden kalır.',
  },
};
