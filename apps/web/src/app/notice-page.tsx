import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AuthLayout } from './auth-layout';

/** A page without the dashboard shell that only tells something: a title, a text, a way back. */
export function NoticePage({
  title,
  text,
  back,
}: {
  title: string;
  text?: ReactNode;
  back: { to: string; label: string };
}) {
  return (
    <AuthLayout>
      <h1 className="text-xl font-semibold">{title}</h1>
      {text && <p className="text-muted-foreground text-sm">{text}</p>}
      <Link
        to={back.to}
        className="focus-visible:ring-ring/50 rounded-sm text-sm font-medium underline underline-offset-4 outline-none focus-visible:ring-[3px]"
      >
        {back.label}
      </Link>
    </AuthLayout>
  );
}
