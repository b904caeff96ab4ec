import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { BOARDS, GENDERS, GRADES, type Gender } from '@tc/domain/constants';
import { gradeLabel } from '@tc/domain/registration';
import { OutlinedField, OutlinedSelect } from '../../components/outlined-field.tsx';
import { PasswordField } from '../../components/password-field.tsx';
import { passwordHint } from '../../lib/password-strength.ts';
import { DateOfBirthField } from './date-of-birth-field.tsx';
import type { RegistrationForm, RegistrationFormField } from './use-registration.ts';

interface StudentDetailsFieldsProps {
  form: RegistrationForm;
  set: <K extends RegistrationFormField>(key: K, value: RegistrationForm[K]) => void;
  fieldProps: (field: RegistrationFormField) => { error: boolean; helperText?: string };
}

/** The student's details of the registration form, each control named by its visible label. */
export function StudentDetailsFields({ form, set, fieldProps }: StudentDetailsFieldsProps) {
  const text = (field: 'fullname' | 'email' | 'mobile', label: string, type: string, autoComplete: string) => (
    <OutlinedField
      label={label}
      name={field}
      type={type}
      autoComplete={autoComplete}
      value={form[field]}
      onChange={(e) => set(field, e.target.value)}
      htmlInput={type === 'tel' ? { inputMode: 'tel' } : undefined}
      {...fieldProps(field)}
    />
  );
  const password = fieldProps('password');
  return (
    <>
      {/* The child's name: "name" would have the browser fill in the parent's own. */}
      {text('fullname', 'Student Full Name', 'text', 'off')}
      {text('email', 'Email', 'email', 'email')}
      {text('mobile', 'Mobile', 'tel', 'tel')}
      <PasswordField
        label="Password"
        name="password"
        autoComplete="new-password"
        value={form.password}
        onChange={(e) => set('password', e.target.value)}
        error={password.error}
        helperText={password.helperText ?? passwordHint(form.password)}
      />
      <PasswordField
        label="Confirm Password"
        name="cnfpassword"
        autoComplete="new-password"
        value={form.cnfpassword}
        onChange={(e) => set('cnfpassword', e.target.value)}
        {...fieldProps('cnfpassword')}
      />
      <DateOfBirthField value={form.dob} onChange={(value) => set('dob', value)} {...fieldProps('dob')} />
      <FormControl component="fieldset" error={fieldProps('gender').error}>
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
      <OutlinedSelect
        label="Grade"
        name="grade"
        value={form.grade}
        onChange={(e) => set('grade', e.target.value)}
        shrinkLabel
        {...fieldProps('grade')}
      >
        <option value="">Select Grade</option>
        {GRADES.map((grade) => (
          <option key={grade} value={grade}>
            {gradeLabel(grade)}
          </option>
        ))}
      </OutlinedSelect>
      <OutlinedSelect
        label="Board"
        name="board"
        value={form.board}
        onChange={(e) => set('board', e.target.value)}
        shrinkLabel
        {...fieldProps('board')}
      >
        <option value="">Select a Board</option>
        {BOARDS.map((board) => (
          <option key={board} value={board}>
            {board}
          </option>
        ))}
      </OutlinedSelect>
    </>
  );
}
