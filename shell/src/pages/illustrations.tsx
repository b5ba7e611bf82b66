/** Illustrations for the 404 and 403 error screens (decorative; the text says it all). */
export function NotFoundIllustration() {
  return (
    <svg viewBox="0 0 240 160" width="240" height="160" aria-hidden="true" focusable="false" data-illustration="404">
      <rect x="20" y="24" width="200" height="120" rx="12" fill="var(--atelier-surface)" stroke="var(--atelier-border)" strokeWidth="2" />
      <rect x="20" y="24" width="200" height="24" rx="12" fill="var(--atelier-border)" />
      <circle cx="38" cy="36" r="4" fill="var(--atelier-bg)" />
      <circle cx="52" cy="36" r="4" fill="var(--atelier-bg)" />
      <circle cx="108" cy="94" r="22" fill="none" stroke="var(--atelier-primary)" strokeWidth="6" />
      <path d="M124 110l22 22" stroke="var(--atelier-primary)" strokeWidth="8" strokeLinecap="round" />
      <path d="M100 88l16 12M116 88l-16 12" stroke="var(--atelier-text-muted)" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

export function ForbiddenIllustration() {
  return (
    <svg viewBox="0 0 240 160" width="240" height="160" aria-hidden="true" focusable="false" data-illustration="403">
      <rect x="70" y="70" width="100" height="74" rx="10" fill="var(--atelier-surface)" stroke="var(--atelier-border)" strokeWidth="2" />
      <path d="M92 70V52a28 28 0 0 1 56 0v18" fill="none" stroke="var(--atelier-primary)" strokeWidth="8" strokeLinecap="round" />
      <circle cx="120" cy="100" r="9" fill="var(--atelier-primary)" />
      <rect x="116" y="104" width="8" height="20" rx="3" fill="var(--atelier-primary)" />
    </svg>
  );
}
