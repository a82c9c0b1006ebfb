/**
 * The rules of the email template editor without React (spec part 2, sections 4, 5 and 9): the
 * versions being edited, their Active/Draft and modified state, the new version copied from the
 * selected one, the three-step save, the test-send checks and the text derived from the HTML.
 */
import {
  isValidRecipient,
  type EmailTemplate,
  type EmailTemplateVersion,
  type EmailTemplateVersionCreateInput,
} from '@console/contracts';

/** The content a person edits in a version. */
export interface VersionContent {
  fromAddress: string;
  subject: string;
  body: string;
  textContent: string;
  jsonSchema: string;
}

/** A version in the editor: saved (with its id and saved content) or a new draft (no id). */
export interface EditorVersion {
  /** The editor's own key: the id once saved, else `draft-{number}`. */
  key: string;
  id: number | null;
  versionNumber: number;
  content: VersionContent;
  /** What the server has, for a saved version: a difference is an unsaved edit. */
  saved: VersionContent | null;
}

/** New template default version (spec 9): a no-reply sender, placeholder subject, HTML and text. */
export const DEFAULT_VERSION_CONTENT: VersionContent = {
  fromAddress: 'no-reply@example.com',
  subject: 'Subject of your email',
  body: '<p>Hello {{name}},</p>\n<p>Your message here.</p>',
  textContent: 'Hello {{name}},\n\nYour message here.',
  jsonSchema: '',
};

export function contentOf(version: EmailTemplateVersion): VersionContent {
  return {
    fromAddress: version.fromAddress,
    subject: version.subject,
    body: version.body,
    textContent: version.textContent,
    jsonSchema: version.jsonSchema ?? '',
  };
}

export function editorVersions(template: EmailTemplate): EditorVersion[] {
  return template.versions.map((version) => ({
    key: String(version.id),
    id: version.id,
    versionNumber: version.versionNumber,
    content: contentOf(version),
    saved: contentOf(version),
  }));
}

const sameContent = (a: VersionContent, b: VersionContent) =>
  (Object.keys(a) as (keyof VersionContent)[]).every((field) => a[field] === b[field]);

/** A saved version with unsaved edits (shown with an asterisk and a modified status). */
export function isModified(version: EditorVersion): boolean {
  return version.saved !== null && !sameContent(version.content, version.saved);
}

export type VersionStatus = 'active' | 'draft';

/** Active when it is the template's active version (as saved); every other version is Draft. */
export function versionStatus(
  version: EditorVersion,
  activeVersionId: number | null,
): VersionStatus {
  return version.id !== null && version.id === activeVersionId ? 'active' : 'draft';
}

/** The label of a version in the list: 'v3', with an asterisk when modified. */
export function versionLabel(version: EditorVersion): string {
  return `v${version.versionNumber}${isModified(version) ? '*' : ''}`;
}

/**
 * A new draft (spec 4): no id, numbered one above the highest, with the selected version's
 * content (or the default content when there is none).
 */
export function newDraft(
  versions: readonly EditorVersion[],
  selected: EditorVersion | undefined,
): EditorVersion {
  const versionNumber = Math.max(0, ...versions.map((version) => version.versionNumber)) + 1;
  return {
    key: `draft-${versionNumber}`,
    id: null,
    versionNumber,
    content: { ...(selected?.content ?? DEFAULT_VERSION_CONTENT) },
    saved: null,
  };
}

/** The body of POST api/emailtemplates/{id}/versions for a draft: blank text is derived. */
export function versionRequest(content: VersionContent): EmailTemplateVersionCreateInput & {
  subject: string;
  body: string;
  textContent: string | null;
  jsonSchema: string | null;
} {
  return {
    fromAddress: content.fromAddress,
    subject: content.subject,
    body: content.body,
    textContent: content.textContent.trim() ? content.textContent : null,
    jsonSchema: content.jsonSchema.trim() ? content.jsonSchema : null,
  };
}

/**
 * Plain text of an HTML body, for a version whose text is left blank: the text of the document
 * without scripts and styles, block elements on lines of their own, links with their address.
 * (The server derives the stored text the same way when none is sent.)
 */
export function textFromHtml(html: string): string {
  const document = new DOMParser().parseFromString(html, 'text/html');
  document.querySelectorAll('script, style, head').forEach((element) => element.remove());
  document.querySelectorAll('a[href]').forEach((link) => {
    const href = link.getAttribute('href') ?? '';
    if (href && href !== link.textContent) link.append(` [${href}]`);
  });
  // Paragraph-like blocks are set apart by a blank line, rows and items by a line break.
  const breaks: [string, string][] = [
    ['p, div, h1, h2, h3, h4, h5, h6, table', '\n\n'],
    ['tr, li, br', '\n'],
  ];
  for (const [selector, separator] of breaks) {
    document.querySelectorAll(selector).forEach((element) => element.append(separator));
  }
  return (document.body.textContent ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The calls a save makes, in the order of spec 4. */
export interface SaveCalls {
  createTemplate(): Promise<number>;
  createVersion(templateId: number, content: VersionContent): Promise<{ id: number }>;
  updateTemplate(templateId: number, activeVersionId: number | null): Promise<void>;
}

export interface SaveInput {
  templateId: number | null;
  versions: readonly EditorVersion[];
  /** The version marked active: a saved id, or a draft's key until it is saved. */
  pendingActiveKey: string | null;
  activeVersionId: number | null;
}

/**
 * The three-step save (spec 4): 1. create the template when it is new; 2. create every draft;
 * 3. update the template with the chosen active version, a draft's resolved to its new id.
 * Answers the template id and the new ids by draft key.
 */
export async function saveTemplate(
  input: SaveInput,
  calls: SaveCalls,
): Promise<{ templateId: number; createdIds: Map<string, number> }> {
  const templateId = input.templateId ?? (await calls.createTemplate());
  const createdIds = new Map<string, number>();
  for (const version of input.versions) {
    if (version.id !== null) continue;
    const created = await calls.createVersion(templateId, version.content);
    createdIds.set(version.key, created.id);
  }
  const active = resolveActive(input, createdIds);
  await calls.updateTemplate(templateId, active);
  return { templateId, createdIds };
}

function resolveActive(input: SaveInput, createdIds: Map<string, number>): number | null {
  if (input.pendingActiveKey === null) return input.activeVersionId;
  const created = createdIds.get(input.pendingActiveKey);
  if (created !== undefined) return created;
  const saved = input.versions.find((version) => version.key === input.pendingActiveKey);
  return saved?.id ?? input.activeVersionId;
}

/** Saved versions with unsaved edits: a save asks whether to discard or keep them first. */
export function modifiedVersions(versions: readonly EditorVersion[]): EditorVersion[] {
  return versions.filter(isModified);
}

/** Why the test button is disabled, or null when a test can be sent (spec 5). */
export function testSendBlocker(
  templateKey: string,
  selected: EditorVersion | undefined,
): 'noKey' | 'noVersion' | 'unsaved' | null {
  if (!templateKey.trim()) return 'noKey';
  if (!selected) return 'noVersion';
  if (selected.id === null || isModified(selected)) return 'unsaved';
  return null;
}

/** The recipient of a test email matches the basic {email} pattern (spec 5). */
export function isTestRecipient(address: string): boolean {
  return isValidRecipient(address.trim());
}
