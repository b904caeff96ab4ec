import { CENTRE_EMAIL, PRODUCT_NAME } from '@tc/domain/constants';
import { LegalPage } from './legal-page.tsx';

export default function PrivacyPage() {
  return (
    <LegalPage title="Privacy notice" updated="26 November 2026">
      <p>
        {PRODUCT_NAME} (&quot;the centre&quot;) is the data fiduciary for the personal data given on this site, under
        India&apos;s Digital Personal Data Protection Act, 2023 (DPDP Act). This notice says what we collect, why, how
        long we keep it, and what you can ask of us.
      </p>
      <h2>What we collect</h2>
      <ul>
        <li>The student&apos;s full name, date of birth, gender (son or daughter), grade and school board.</li>
        <li>The e-mail address and the mobile number the family gives, and the password (stored only as a hash).</li>
        <li>The enrollment number we give the student, and when the account was created and last changed.</li>
        <li>
          The student&apos;s marks in the centre&apos;s assessments (or that they were absent), and the private link of
          their class calendar.
        </li>
        <li>A record of each change our staff make to the student&apos;s account or marks: who made it, and when.</li>
        <li>
          Technical records kept for security: the network address of requests, for a short time, to stop abuse such as
          guessing passwords or codes.
        </li>
      </ul>
      <h2>Why we need it</h2>
      <ul>
        <li>
          <strong>Mobile number:</strong> to check, with a one-time code, that the family can be reached, to let the
          student log in with it, and to reach you about classes.
        </li>
        <li>
          <strong>Date of birth:</strong> to check the student is old enough for our classes (at least 5) and to place
          them with children of a similar age.
        </li>
        <li>
          <strong>E-mail address:</strong> for the welcome message, password reset codes, and messages about the
          student&apos;s classes.
        </li>
        <li>
          <strong>Grade and board:</strong> to teach the right syllabus and show the student their timetable.
        </li>
        <li>
          <strong>Marks:</strong> to show the student and the family their progress, and to tell the family by e-mail
          when new marks are published. Only the student&apos;s own account and our staff see them. The average of the
          student&apos;s group is shown only when at least five students have marks, so that it never gives away one
          child&apos;s mark.
        </li>
      </ul>
      <p>
        We use the data only for teaching the student and running the account. We do not sell it, and we do not use it
        for advertising or share it with advertisers. Text messages and e-mails are sent through service providers who
        may use the data only to deliver them.
      </p>
      <h2>How long we keep it</h2>
      <p>
        While the student is enrolled, and for one year after the last class or contact, so that a returning student
        keeps their record. Then we erase it, except what the law requires us to keep. Security records are kept only as
        long as they are needed for that purpose. Copies in our backups are deleted within 14 days; if we ever restore a
        backup, data erased since it was made is erased again.
      </p>
      <h2>Your rights</h2>
      <p>Under the DPDP Act, the parent or guardian (or the student, once an adult) may ask us to:</p>
      <ul>
        <li>give a summary of the personal data we hold and how we use it, or a copy of it;</li>
        <li>correct or complete data that is wrong or out of date;</li>
        <li>erase the data, and withdraw consent, which closes the account;</li>
        <li>name another person to act for you if you cannot.</li>
      </ul>
      <p>
        Write to <a href={`mailto:${CENTRE_EMAIL}`}>{CENTRE_EMAIL}</a> from the e-mail address on the account, or call
        us. We answer within 30 days. If you are not satisfied with our answer you may complain to the Data Protection
        Board of India.
      </p>
    </LegalPage>
  );
}
