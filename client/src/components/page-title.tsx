import { PRODUCT_NAME } from '@tc/domain/constants';

/** The document title of a screen (React 19 hoists <title> into <head>). */
export function PageTitle({ title }: { title: string }) {
  return <title>{`${title} | ${PRODUCT_NAME}`}</title>;
}
