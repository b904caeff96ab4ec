import { PRODUCT_NAME, GRADES, MIN_AGE_YEARS } from '@tc/domain/constants';
import { Route } from '@tc/domain/routes';
import { TextLink } from '../../components/text-link.tsx';
import { LegalPage } from './legal-page.tsx';

export default function TermsPage() {
  return (
    <LegalPage title="Terms and conditions" updated="23 November 2026">
      <p>
        These terms apply when a parent or guardian registers a student with {PRODUCT_NAME} (&quot;the centre&quot;) and
        when the student or the parent uses this website. Ticking &quot;I agree with terms and conditions&quot; on the
        registration form means you accept them.
      </p>
      <h2>Who may register</h2>
      <p>
        The centre teaches school grades {GRADES[0]} to {GRADES[GRADES.length - 1]}. A student must be at least{' '}
        {MIN_AGE_YEARS} years old. A parent or guardian registers the student and confirms that the details given are
        true, and that they may give them (India&apos;s Digital Personal Data Protection Act, 2023, asks for a
        parent&apos;s consent for a child&apos;s data).
      </p>
      <h2>Your account</h2>
      <ul>
        <li>Keep the password to yourself. Anyone who knows it can see the student&apos;s profile.</li>
        <li>The mobile number is checked with a one-time code; use a number the family can receive texts on.</li>
        <li>Tell the centre when the e-mail address or the mobile number changes, so messages reach you.</li>
      </ul>
      <h2>Classes and fees</h2>
      <p>
        Registering creates an account; it does not book classes or bind you to pay anything. The centre agrees classes,
        timings and fees with you separately before any class starts.
      </p>
      <h2>Fair use of the site</h2>
      <p>
        Do not try to reach other people&apos;s accounts, overload the site, or use it to send messages to people who
        did not ask for them. The centre may close an account that is used this way.
      </p>
      <h2>Your data</h2>
      <p>
        What the centre collects, why, for how long, and how to get a copy or have it erased is set out in the{' '}
        <TextLink to={Route.privacy}>privacy notice</TextLink>.
      </p>
      <h2>Changes</h2>
      <p>
        If these terms change, the new version is published on this page with its date, and registered families are told
        by e-mail of any change that affects them.
      </p>
    </LegalPage>
  );
}
