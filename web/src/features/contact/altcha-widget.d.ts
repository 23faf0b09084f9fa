/** The ALTCHA widget as a JSX element: the attributes the contact forms set on it. */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': DetailedHTMLProps<HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        language?: string;
        name?: string;
      };
    }
  }
}
