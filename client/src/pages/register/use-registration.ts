// The registration flow: details -> uniqueness checks -> code by
// SMS -> registration with the code -> welcome mail -> /thank-you with the new
// enrollment number.

import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { API_DATE_FORMAT, DEFAULT_GENDER, type Gender } from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { normalizeMobile, validateRegistration, type ValidRegistration } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import type { ResponseOf } from '@tc/domain/api/contract';
import { call, type ApiResult } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { notify } from '../../lib/notify.ts';
import type { ThankYouState } from '../../lib/navigation-state.ts';
import { looksLikeOtp } from '../../lib/otp.ts';
import { useCodeSender } from '../../lib/use-code-sender.ts';
import { useEarlyInput } from '../../lib/use-early-input.ts';
import { useFormProblem } from '../../lib/use-form-problem.ts';
import { dayjsIfLoaded, withDayjs } from './load-dayjs.ts';
import { registrationFailure } from './register-errors.ts';

export interface RegistrationForm {
  fullname: string;
  email: string;
  mobile: string;
  password: string;
  cnfpassword: string;
  dob: Dayjs | null;
  gender: Gender;
  grade: string;
  board: string;
  tmc: boolean;
  otp: string;
}
export type RegistrationFormField = keyof RegistrationForm;

const FIELDS: readonly RegistrationFormField[] = [
  'fullname',
  'email',
  'mobile',
  'password',
  'cnfpassword',
  'dob',
  'gender',
  'grade',
  'board',
  'tmc',
  'otp',
];

/** The fields whose value is their text (or the option picked). */
const TYPED_FIELDS = FIELDS.filter((field) => field !== 'dob' && field !== 'tmc');

// The form's date of birth defaults to today (once dayjs has arrived: see load-dayjs.ts).
const emptyForm = (): RegistrationForm => ({
  fullname: '',
  email: '',
  mobile: '',
  password: '',
  cnfpassword: '',
  dob: dayjsIfLoaded()?.() ?? null,
  gender: DEFAULT_GENDER,
  grade: '',
  board: '',
  tmc: false,
  otp: '',
});

function dobText(dob: Dayjs | null): string | null {
  if (!dob) return null;
  return dob.isValid() ? dob.format(API_DATE_FORMAT) : 'invalid';
}

export function useRegistration() {
  const navigate = useNavigate();
  const [form, setForm] = useState<RegistrationForm>(emptyForm);
  const { formRef, problem, clearProblem, fail, changed, run, busy, fieldProps } = useFormProblem(FIELDS);
  // A code sent: what was wrong before (a wrong code, a refused resend) is over.
  const code = useCodeSender(fail, clearProblem);
  // The number the last code went to: the code is bound to it.
  const [sentTo, setSentTo] = useState<string | null>(null);
  // The code field stays once a code is sent (what is typed in it is kept), but a code is for
  // the number it went to: with another number typed, the button sends a new code.
  const codeMatchesMobile = sentTo !== null && normalizeMobile(form.mobile) === normalizeMobile(sentTo);
  // The code step shows once a code has been sent.
  const stage: 'details' | 'otp' = sentTo === null ? 'details' : 'otp';

  const dobTouched = useRef(false);
  useEffect(() => {
    void withDayjs((dayjs) =>
      setForm((current) => (current.dob === null && !dobTouched.current ? { ...current, dob: dayjs() } : current)),
    );
  }, []);

  const set = <K extends RegistrationFormField>(key: K, value: RegistrationForm[K]) => {
    if (key === 'dob') dobTouched.current = true;
    setForm((current) => ({ ...current, [key]: value }));
    changed(key);
  };

  // What a parent typed before the page's code arrived (the date field reads its own).
  useEarlyInput(formRef, (name, value) => {
    if (name === 'tmc') return set('tmc', value === true);
    const field = TYPED_FIELDS.find((f) => f === name);
    if (field && typeof value === 'string') set(field, value);
  });

  const validate = (): ValidRegistration | null => {
    const result = validateRegistration({
      ...form,
      dob: dobText(form.dob),
      grade: form.grade === '' ? '' : Number(form.grade),
    });
    if (result.ok) return result.value;
    fail(result.message, result.field);
    return null;
  };

  const sendCode = async (mobile: string) => {
    const sent = await code.send(() => call('sendRegistrationCode', { mobile }));
    if (sent) {
      // A code for another number: the one typed for the old number goes.
      if (sentTo === null || normalizeMobile(sentTo) !== normalizeMobile(mobile)) {
        setForm((current) => ({ ...current, otp: '' }));
      }
      setSentTo(mobile);
    }
    // The final save goes through the Parse SDK: fetched now, while the parent reads the SMS.
    if (sent) void import('../../lib/parse-sdk.ts').then(({ loadParse }) => loadParse());
    return sent;
  };

  const requestCode = async () => {
    const valid = validate();
    if (!valid) return;
    const [emailCheck, mobileCheck] = await Promise.all([
      call('checkEmail', { email: valid.email }),
      call('checkMobile', { mobile: valid.mobile }),
    ]);
    if (!emailCheck.ok) return fail(errorText(emailCheck, UiMessage.anErrorOccurred));
    if (!mobileCheck.ok) return fail(errorText(mobileCheck, UiMessage.anErrorOccurred));
    if (emailCheck.data?.exists) return fail(UiMessage.emailAlreadyRegistered, 'email');
    if (mobileCheck.data?.exists) return fail(UiMessage.mobileAlreadyRegistered, 'mobile');
    await sendCode(valid.mobile);
  };

  const resend = () =>
    run(async () => {
      // Another number typed since: it is checked (not already registered) before it gets a code.
      if (!codeMatchesMobile) return requestCode();
      const valid = validate();
      if (valid) await sendCode(valid.mobile);
    });

  const register = async () => {
    const valid = validate();
    if (!valid) return;
    if (!looksLikeOtp(form.otp)) return fail(UiMessage.invalidOtp, 'otp');
    const input = { ...valid, cnfpassword: form.cnfpassword, otp: form.otp.trim() };
    let result: ApiResult<ResponseOf<'registerStudent'>>;
    try {
      const { runCloudFunction } = await import('../../lib/parse-sdk.ts');
      result = await runCloudFunction('registerStudent', input);
    } catch {
      // A module that failed to download is a network failure, as a failed fetch is.
      result = { ok: false, status: 0, data: null, headers: null };
    }
    if (!result.ok || !result.data?.objectId) {
      const failure = registrationFailure(result);
      return fail(failure.message, failure.field);
    }
    const mail = await call('sendWelcomeEmail', { email: valid.email, fullname: valid.fullname });
    if (mail.ok && mail.data?.messageId) notify.success(UiMessage.emailSent);
    else notify.error(UiMessage.failedToSendEmail);
    // Shown last, so it is the toast that stays (one toast at a time).
    notify.success(UiMessage.registrationSuccessful);
    setForm(emptyForm());
    setSentTo(null);
    const state: ThankYouState = { enrollmentId: result.data.id };
    void navigate(Route.thankYou, { state });
  };

  // Something typed, picked or sent that leaving the page would lose (the leave prompt asks first).
  const blank = emptyForm();
  const unfinished =
    sentTo !== null ||
    FIELDS.some((field) => (field === 'dob' ? dobText(form.dob) !== dobText(blank.dob) : form[field] !== blank[field]));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(stage === 'otp' && codeMatchesMobile ? register : requestCode);
  };

  return {
    form,
    set,
    stage,
    sentTo,
    codeMatchesMobile,
    submit,
    resend,
    remaining: code.remaining,
    busy,
    problem,
    fieldProps,
    formRef,
    unfinished,
  };
}
