import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@tc/domain/constants';

/** The password rules, shown before the form is sent. */
const PASSWORD_RULES = `At least ${PASSWORD_MIN_LENGTH} characters, at most ${PASSWORD_MAX_LENGTH}.`;

/**
 * A rough hint, never a rule: length counts most, then the mix of lower case,
 * upper case, digits and other characters.
 */
function passwordStrength(password: string): 'weak' | 'fair' | 'strong' | null {
  const value = password.trim();
  if (!value) return null;
  if (value.length < PASSWORD_MIN_LENGTH) return 'weak';
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((kind) => kind.test(value)).length;
  if (value.length >= 12 && kinds >= 3) return 'strong';
  if (value.length >= 16 || kinds >= 3) return kinds >= 2 ? 'strong' : 'fair';
  return 'fair';
}

/** The text under a new password: the rules, and how strong the typed one looks. */
export function passwordHint(password: string): string {
  const strength = passwordStrength(password);
  return strength ? `${PASSWORD_RULES} Strength: ${strength}.` : PASSWORD_RULES;
}
