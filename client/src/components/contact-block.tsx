import { useId } from 'react';
import { CENTRE_ADDRESS, CENTRE_EMAIL, CENTRE_PHONE } from '@tc/domain/constants';

/** How to reach the centre: postal address, phone and e-mail (linked, for phones and mail apps). */
export function ContactBlock() {
  const id = useId();
  return (
    <section className="contact-block" aria-labelledby={id}>
      <h2 id={id}>Contact us</h2>
      <address>
        <span>{CENTRE_ADDRESS}</span>
        <span>
          Phone: <a href={`tel:${CENTRE_PHONE.replace(/\s/g, '')}`}>{CENTRE_PHONE}</a>
        </span>
        <span>
          E-mail: <a href={`mailto:${CENTRE_EMAIL}`}>{CENTRE_EMAIL}</a>
        </span>
      </address>
    </section>
  );
}
