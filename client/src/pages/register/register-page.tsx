import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import { Route } from '@tc/domain/routes';
import { FormCard } from '../../components/form-card.tsx';
import { FormMessage } from '../../components/form-message.tsx';
import { OtpStep } from '../../components/otp-step.tsx';
import { PageTitle } from '../../components/page-title.tsx';
import { SubmitButton } from '../../components/submit-button.tsx';
import { TextLink } from '../../components/text-link.tsx';
import { UnsavedChangesPrompt } from '../../components/unsaved-changes-prompt.tsx';
import { StudentDetailsFields } from './student-details-fields.tsx';
import { useRegistration } from './use-registration.ts';

/** Where the registration goes once done: the form then holds nothing to lose. */
const DONE: readonly string[] = [Route.thankYou];

/** The terms checkbox's error, which the box names as its description. */
const TERMS_ERROR_ID = 'tmc-error';

export default function RegisterPage() {
  const {
    form,
    set,
    stage,
    sentTo,
    codeMatchesMobile,
    submit,
    resend,
    remaining,
    busy,
    problem,
    fieldProps,
    formRef,
    unfinished,
  } = useRegistration();
  const terms = fieldProps('tmc');
  const otp = fieldProps('otp');
  return (
    <FormCard
      title="Join Us: Register to Begin Your Learning Journey"
      subtitle="Fill in the student's details. We will text a one-time code to the mobile number to verify it. All fields are required."
      maxWidth={600}
    >
      <PageTitle title="Student registration" />
      <UnsavedChangesPrompt
        when={unfinished}
        title="Leave the registration?"
        message="The student is not registered yet. If you leave this page, the details typed here are lost."
        goesOnTo={DONE}
      />
      <Stack component="form" ref={formRef} noValidate spacing={2.5} onSubmit={submit}>
        <StudentDetailsFields form={form} set={set} fieldProps={fieldProps} />
        {sentTo && (
          <OtpStep
            // A code sent to another number: a new step, focused as the first one was.
            key={sentTo}
            value={form.otp}
            onChange={(value) => set('otp', value)}
            remaining={remaining}
            busy={busy}
            onResend={resend}
            sentTo={sentTo}
            // With another number typed, what matters is the new code it needs, not the old code's error.
            error={codeMatchesMobile && otp.error}
            helperText={
              codeMatchesMobile ? otp.helperText : `We sent the code to ${sentTo}. For the new number, press Send OTP.`
            }
          />
        )}
        <FormControl error={terms.error}>
          {/* Plain text: a link inside the label would take a click meant for the box. */}
          <FormControlLabel
            control={
              <Checkbox
                name="tmc"
                checked={form.tmc}
                onChange={(e) => set('tmc', e.target.checked)}
                // The box itself says it is in error, and why (MUI's form control colours only the label).
                slotProps={{
                  input: {
                    'aria-invalid': terms.error || undefined,
                    'aria-describedby': terms.helperText ? TERMS_ERROR_ID : undefined,
                  },
                }}
              />
            }
            label="I agree with terms and conditions"
          />
          {terms.helperText && <FormHelperText id={TERMS_ERROR_ID}>{terms.helperText}</FormHelperText>}
          <FormHelperText error={false}>
            Read the{' '}
            <TextLink to={Route.terms} newTab>
              terms and conditions
            </TextLink>{' '}
            and, on how we use the student&apos;s details, the{' '}
            <TextLink to={Route.privacy} newTab>
              privacy notice
            </TextLink>
            .
          </FormHelperText>
        </FormControl>
        <FormMessage problem={problem} />
        <SubmitButton busy={busy}>
          {stage === 'otp' && codeMatchesMobile ? 'Verify & Register' : 'Send OTP'}
        </SubmitButton>
      </Stack>
    </FormCard>
  );
}
