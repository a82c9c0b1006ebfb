import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { NEW_EMAIL_TEMPLATE_ID } from '@/app/paths';
import { PageHeader } from '@/components/page-header';

/** Placeholder of the email template editor; the id 'new' creates a template (spec part 2). */
export default function EmailTemplateEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  return (
    <PageHeader
      title={t(id === NEW_EMAIL_TEMPLATE_ID ? 'pages.emailTemplateNew' : 'pages.emailTemplateEdit')}
    />
  );
}
