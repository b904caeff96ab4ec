import { useCallback } from 'react';
import { OTP_RESEND_COOLDOWN_SECONDS } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import type { ApiResult } from './api.ts';
import { errorText } from './errors.ts';
import { notify } from './notify.ts';
import { useCooldown } from './use-cooldown.ts';

/**
 * Sending a one-time code, the same for registration (SMS) and the password reset
 * (e-mail): "OTP sent successfully", the cooldown and `onSent` (the form's last error is
 * over) on success; on failure
 * `onFail` gets "Failed to send OTP", or the server's own words when it refuses
 * because of the rate limits (they say how long to wait).
 */
export function useCodeSender(onFail: (message: string) => void, onSent: () => void) {
  const cooldown = useCooldown(OTP_RESEND_COOLDOWN_SECONDS);
  const { start } = cooldown;

  const send = useCallback(
    async (request: () => Promise<ApiResult<unknown>>): Promise<boolean> => {
      const result = await request();
      if (result.ok) {
        notify.success(UiMessage.otpSent);
        start();
        onSent();
        return true;
      }
      onFail(result.status === 429 ? errorText(result, UiMessage.failedToSendOtp) : UiMessage.failedToSendOtp);
      return false;
    },
    [start, onFail, onSent],
  );

  return { send, remaining: cooldown.remaining };
}
