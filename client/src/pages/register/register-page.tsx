import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  API_DATE_FORMAT,
  BOARDS,
  DEFAULT_GENDER,
  GENDERS,
  GRADES,
  OTP_LENGTH,
  OTP_RESEND_COOLDOWN_SECONDS,
  type Gender,
} from '@tc/domain/constants';
import { UiMessage } from '@tc/domain/messages';
import { gradeLabel, validateRegistration, type ValidRegistration } from '@tc/domain/registration';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { ResendCodeButton } from '../../components/resend-code-button.tsx';
import { post } from '../../lib/api.ts';
import { errorText } from '../../lib/errors.ts';
import { focusField } from '../../lib/focus-field.ts';
import { notify } from '../../lib/notify.ts';
import { cleanOtpInput, looksLikeOtp } from '../../lib/otp.ts';
import { useCooldown } from '../../lib/use-cooldown.ts';
import { DateOfBirthField } from './date-of-birth-field.tsx';
import { registrationErrorText } from './register-errors.ts';
import { fieldOfMessage, type RegistrationField } from './registration-fields.ts';

interface FormValues {
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

// The form's date of birth defaults to today (seed-spec §3, product.md §7).
const emptyForm = (): FormValues => ({
  fullname: '',
  email: '',
  mobile: '',
  password: '',
  cnfpassword: '',
  dob: dayjs(),
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

export default function RegisterPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState<FormValues>(emptyForm);
  const [stage, setStage] = useState<'details' | 'otp'>('details');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field: RegistrationField; message: string } | null>(null);
  const cooldown = useCooldown(OTP_RESEND_COOLDOWN_SECONDS);
  const otpRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (stage === 'otp') otpRef.current?.focus();
  }, [stage]);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    if (problem?.field === key) setProblem(null);
    // The code is bound to the mobile number it was sent to (product.md §4).
    if (key === 'mobile' && stage === 'otp') {
      setStage('details');
      setForm((current) => ({ ...current, otp: '' }));
    }
  };

  const fail = (message: string, field: RegistrationField | null = fieldOfMessage(message)) => {
    setProblem(field ? { field, message } : null);
    notify.error(message);
    if (field) focusField(formRef.current, field);
  };

  const validate = (): ValidRegistration | null => {
    const result = validateRegistration({
      fullname: form.fullname,
      email: form.email,
      mobile: form.mobile,
      password: form.password,
      cnfpassword: form.cnfpassword,
      dob: dobText(form.dob),
      gender: form.gender,
      grade: form.grade === '' ? '' : Number(form.grade),
      board: form.board,
      tmc: form.tmc,
    });
    if (!result.ok) {
      fail(result.message);
      return null;
    }
    setProblem(null);
    return result.value;
  };

  const sendCode = async (mobile: string): Promise<boolean> => {
    const sms = await post('/api/send-sms', { mobile });
    if (sms.status === 200) {
      notify.success(UiMessage.otpSent);
      cooldown.start();
      return true;
    }
    fail(sms.status === 429 ? errorText(sms, UiMessage.failedToSendOtp) : UiMessage.failedToSendOtp, null);
    return false;
  };

  const requestCode = async () => {
    const valid = validate();
    if (!valid) return;
    setBusy(true);
    try {
      const [emailCheck, mobileCheck] = await Promise.all([
        post<{ exists?: boolean }>('/api/check-email', { email: valid.email }),
        post<{ exists?: boolean }>('/api/check-mobile', { mobile: valid.mobile }),
      ]);
      if (!emailCheck.ok) return fail(errorText(emailCheck, UiMessage.anErrorOccurred), null);
      if (!mobileCheck.ok) return fail(errorText(mobileCheck, UiMessage.anErrorOccurred), null);
      if (emailCheck.data?.exists) return fail(UiMessage.emailAlreadyRegistered, 'email');
      if (mobileCheck.data?.exists) return fail(UiMessage.mobileAlreadyRegistered, 'mobile');
      if (await sendCode(valid.mobile)) setStage('otp');
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    const valid = validate();
    if (!valid) return;
    setBusy(true);
    await sendCode(valid.mobile);
    setBusy(false);
  };

  const register = async () => {
    const valid = validate();
    if (!valid) return;
    if (!looksLikeOtp(form.otp)) return fail(UiMessage.invalidOtp, 'otp');
    setBusy(true);
    try {
      const result = await post<{ objectId?: string }>('/api/register', {
        ...valid,
        cnfpassword: form.cnfpassword,
        otp: form.otp.trim(),
      });
      if (!result.ok || !result.data?.objectId) {
        const message = registrationErrorText(result);
        return fail(message, message === UiMessage.invalidOtp ? 'otp' : fieldOfMessage(message));
      }
      const mail = await post<{ messageId?: string }>('/api/send-email', {
        email: valid.email,
        fullname: valid.fullname,
      });
      if (mail.ok && mail.data?.messageId) notify.success(UiMessage.emailSent);
      else notify.error(UiMessage.failedToSendEmail);
      // Shown last, so it is the toast that stays (one toast at a time).
      notify.success(UiMessage.registrationSuccessful);
      setForm(emptyForm());
      setStage('details');
      navigate(Route.thankYou);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    void (stage === 'details' ? requestCode() : register());
  };

  const errorProps = (field: RegistrationField) => ({
    error: problem?.field === field,
    helperText: problem?.field === field ? problem.message : undefined,
  });

  return (
    <FormCard
      title="Join Us: Register to Begin Your Learning Journey"
      subtitle="Fill in the student's details. We will text a one-time code to the mobile number to verify it. All fields are required."
      maxWidth={600}
    >
      <PageTitle title="Student registration" />
      <LocalizationProvider dateAdapter={AdapterDayjs}>
        <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
          <TextField
            label="Student Full Name"
            name="fullname"
            autoComplete="name"
            value={form.fullname}
            onChange={(e) => set('fullname', e.target.value)}
            {...errorProps('fullname')}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={form.email}
            onChange={(e) => set('email', e.target.value)}
            {...errorProps('email')}
          />
          <TextField
            label="Mobile"
            name="mobile"
            type="tel"
            autoComplete="tel"
            value={form.mobile}
            onChange={(e) => set('mobile', e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'tel' } }}
            {...errorProps('mobile')}
          />
          <PasswordField
            label="Password"
            name="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
            {...errorProps('password')}
          />
          <PasswordField
            label="Confirm Password"
            name="cnfpassword"
            autoComplete="new-password"
            value={form.cnfpassword}
            onChange={(e) => set('cnfpassword', e.target.value)}
            {...errorProps('cnfpassword')}
          />
          <DateOfBirthField value={form.dob} onChange={(value) => set('dob', value)} {...errorProps('dob')} />
          <FormControl component="fieldset" error={problem?.field === 'gender'}>
            <FormLabel component="legend" id="gender-label" sx={{ mb: 0.5 }}>
              Gender
            </FormLabel>
            <RadioGroup
              row
              aria-labelledby="gender-label"
              name="gender"
              value={form.gender}
              onChange={(e) => set('gender', e.target.value as Gender)}
            >
              {GENDERS.map((gender) => (
                <FormControlLabel key={gender} value={gender} control={<Radio />} label={gender} />
              ))}
            </RadioGroup>
          </FormControl>
          <TextField
            select
            label="Grade"
            name="grade"
            value={form.grade}
            onChange={(e) => set('grade', e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            {...errorProps('grade')}
          >
            <option value="">Select Grade</option>
            {GRADES.map((grade) => (
              <option key={grade} value={grade}>
                {gradeLabel(grade)}
              </option>
            ))}
          </TextField>
          <TextField
            select
            label="Board"
            name="board"
            value={form.board}
            onChange={(e) => set('board', e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            {...errorProps('board')}
          >
            <option value="">Select a Board</option>
            {BOARDS.map((board) => (
              <option key={board} value={board}>
                {board}
              </option>
            ))}
          </TextField>
          {stage === 'otp' && (
            <Stack spacing={0.5}>
              <TextField
                label="OTP"
                name="otp"
                autoComplete="one-time-code"
                inputRef={otpRef}
                value={form.otp}
                onChange={(e) => set('otp', cleanOtpInput(e.target.value))}
                slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: OTP_LENGTH } }}
                {...errorProps('otp')}
                helperText={
                  problem?.field === 'otp'
                    ? problem.message
                    : `Enter the ${OTP_LENGTH}-digit code we sent to ${form.mobile.trim()}`
                }
              />
              <ResendCodeButton remaining={cooldown.remaining} busy={busy} onResend={resend} />
            </Stack>
          )}
          <FormControl error={problem?.field === 'tmc'}>
            <FormControlLabel
              control={<Checkbox name="tmc" checked={form.tmc} onChange={(e) => set('tmc', e.target.checked)} />}
              label="I agree with terms and conditions"
            />
            {problem?.field === 'tmc' && <FormHelperText>{problem.message}</FormHelperText>}
          </FormControl>
          <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
            {stage === 'details' ? 'Send OTP' : 'Verify & Register'}
          </Button>
        </Stack>
      </LocalizationProvider>
    </FormCard>
  );
}
