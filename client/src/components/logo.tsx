import { palette } from '../app/palette.ts';

/** The site's mark: a mortarboard on a rounded tile. Decorative beside the title. */
export function Logo({ size = 40 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill={palette.primary.main} />
      <path d="M14 24 32 15l18 9-18 9z" fill={palette.secondary.main} />
      <path d="M21 29v9c0 4 5 7 11 7s11-3 11-7v-9l-11 6z" fill="#ffffff" />
      <path d="M50 24v12" stroke={palette.secondary.main} strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
