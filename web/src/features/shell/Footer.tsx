import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCompanyName } from './companyName.js';

const footerLinks = [
  { to: '/', labelKey: 'footer.home' },
  { to: '/wordpress', labelKey: 'footer.wordpress' },
  { to: '/terms-of-service', labelKey: 'footer.terms' },
  { to: '/privacy-policy', labelKey: 'footer.privacy' },
  { to: '/contact', labelKey: 'footer.contact' },
  { to: '/faqs', labelKey: 'footer.faqs' },
  { to: '/about', labelKey: 'footer.about' },
] as const;

export function Footer() {
  const { t } = useTranslation('common');
  // The server's COMPANY_NAME, at run time (companyName.ts).
  const companyName = useCompanyName();
  return (
    <footer className="site-footer">
      <nav aria-label={t('footer.label')}>
        <ul className="footer-links">
          {footerLinks.map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{t(link.labelKey)}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="copyright">{t('footer.copyright', { year: new Date().getFullYear(), company: companyName })}</p>
    </footer>
  );
}
