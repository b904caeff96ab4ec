// Changing one's own password while logged in. Apart from messages.ts: the public forms'
// code need not carry them.

/** Changing one's own password while logged in (students and administrators). */
export const PasswordChangeMessage = {
  currentRequired: 'Please enter your current password',
  wrongCurrent: 'The current password is wrong',
  changed: 'Password changed; your other sessions have ended',
  failed: 'The password could not be changed',
} as const;
