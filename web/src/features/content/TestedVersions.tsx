import { useTranslation } from 'react-i18next';
import { pluginTestedVersions } from './config.js';

/**
 * The plugin's tested versions as a table. The numbers come from the build's configuration (see
 * config.ts); an unset one reads 'Not yet published' rather than a guess, because a merchant
 * upgrades WordPress on the strength of this table.
 */
export function TestedVersions() {
  const { t } = useTranslation('wordpress');
  return (
    <table className="content-table">
      <thead>
        <tr>
          <th scope="col">{t('tested.software')}</th>
          <th scope="col">{t('tested.version')}</th>
        </tr>
      </thead>
      <tbody>
        {pluginTestedVersions.map(({ software, version }) => (
          <tr key={software}>
            <th scope="row">{software}</th>
            <td>{version ?? <span className="content-muted">{t('tested.notPublished')}</span>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
