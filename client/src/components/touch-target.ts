/**
 * An icon button a finger finds on a phone: 44 px each way (WCAG 2.5.5, Apple's and
 * Google's guides), where MUI's small one is 30. Wider screens, used with a pointer,
 * keep MUI's size.
 */
export const PHONE_TOUCH_TARGET = { minWidth: { xs: 44, sm: 0 }, minHeight: { xs: 44, sm: 0 } } as const;
