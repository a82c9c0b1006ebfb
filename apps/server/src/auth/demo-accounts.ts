/**
 * The people the embedded identity provider offers on its sign-in page. Their roles do not come
 * from here: admin and staff follow ADMIN_EMAILS / STAFF_EMAILS (whose defaults name
 * admin@example.com and @example.com), tenant users are rows of `tenant_users` made by the demo seed.
 */
export interface DemoAccount {
  email: string;
  name: string;
  /** What the account shows on the sign-in page. */
  description: string;
}

export const demoAccounts: readonly DemoAccount[] = [
  { email: 'admin@example.com', name: 'Ada Admin', description: 'Administrator and staff' },
  { email: 'staff@example.com', name: 'Sam Staff', description: 'Staff' },
  {
    email: 'portal@acme.example',
    name: 'Pat Portal',
    description: 'Tenant user of Acme Corporation',
  },
  {
    email: 'portal@globex.example',
    name: 'Gus Globex',
    description: 'Tenant user of Globex Limited',
  },
  {
    email: 'outsider@example.org',
    name: 'Olly Outsider',
    description: 'No role: the console refuses it',
  },
];

/** The display name of any address: a demo account's name, else one made from the local part. */
export function displayNameFor(email: string): string {
  const demo = demoAccounts.find((account) => account.email === email);
  if (demo) return demo.name;
  const localPart = email.slice(0, email.indexOf('@'));
  const words = localPart.split(/[._+-]+/).filter((word) => word.length > 0);
  const name = words.map((word) => word[0]?.toUpperCase() + word.slice(1)).join(' ');
  return name || email;
}
