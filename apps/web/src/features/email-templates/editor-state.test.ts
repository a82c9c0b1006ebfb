import { describe, expect, it, vi } from 'vitest';
import type { EmailTemplate } from '@console/contracts';
import {
  editorVersions,
  isModified,
  isTestRecipient,
  modifiedVersions,
  newDraft,
  saveTemplate,
  testSendBlocker,
  textFromHtml,
  versionLabel,
  versionRequest,
  versionStatus,
  type SaveCalls,
} from './editor-state';

const version = (id: number, versionNumber: number, subject = `Subject ${versionNumber}`) => ({
  id,
  emailTemplateId: 7,
  versionNumber,
  fromAddress: 'no-reply@example.com',
  subject,
  body: `<p>Body ${versionNumber}</p>`,
  textContent: `Body ${versionNumber}`,
  jsonSchema: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

const TEMPLATE: EmailTemplate = {
  id: 7,
  templateKey: 'welcome',
  tenantId: null,
  partyEntityId: null,
  productType: 0,
  productScope: 0,
  activeVersionId: 11,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  versions: [version(11, 1), version(12, 2)],
};

describe('version state rules', () => {
  it('shows the active version as Active and every other as Draft', () => {
    const [first, second] = editorVersions(TEMPLATE);
    expect(versionStatus(first!, TEMPLATE.activeVersionId)).toBe('active');
    expect(versionStatus(second!, TEMPLATE.activeVersionId)).toBe('draft');
    expect(versionStatus(newDraft([first!], first), TEMPLATE.activeVersionId)).toBe('draft');
  });

  it('marks a saved version with edits as modified, with an asterisk', () => {
    const [first] = editorVersions(TEMPLATE);
    expect(isModified(first!)).toBe(false);
    expect(versionLabel(first!)).toBe('v1');
    const edited = { ...first!, content: { ...first!.content, subject: 'Changed' } };
    expect(isModified(edited)).toBe(true);
    expect(versionLabel(edited)).toBe('v1*');
    // Edited back to what is saved: no longer modified.
    expect(isModified({ ...edited, content: { ...first!.content } })).toBe(false);
    // A draft is never "modified": it is not saved.
    expect(isModified(newDraft([first!], edited))).toBe(false);
  });

  it('numbers a new draft one above the highest and copies the selected content', () => {
    const versions = editorVersions(TEMPLATE);
    const edited = { ...versions[0]!, content: { ...versions[0]!.content, subject: 'Edited' } };
    const draft = newDraft(versions, edited);
    expect(draft).toMatchObject({ id: null, versionNumber: 3, saved: null });
    expect(draft.content.subject).toBe('Edited');
    expect(draft.content).not.toBe(edited.content);
    expect(newDraft([], undefined).content.fromAddress).toBe('no-reply@example.com');
  });
});

describe('the three-step save', () => {
  const recorder = () => {
    const log: string[] = [];
    const calls: SaveCalls = {
      createTemplate: vi.fn(async () => {
        log.push('create template');
        return 70;
      }),
      createVersion: vi.fn(async (templateId, content) => {
        log.push(`create version of ${templateId}: ${content.subject}`);
        return { id: 100 + log.length };
      }),
      updateTemplate: vi.fn(async (templateId, active) => {
        log.push(`update ${templateId} active ${active}`);
      }),
    };
    return { log, calls };
  };

  it('creates a new template, then its drafts, then updates it with the draft marked active', async () => {
    const { log, calls } = recorder();
    const first = newDraft([], undefined);
    const second = { ...newDraft([first], first), content: { ...first.content, subject: 'Two' } };
    const result = await saveTemplate(
      {
        templateId: null,
        versions: [first, second],
        pendingActiveKey: second.key,
        activeVersionId: null,
      },
      calls,
    );
    expect(log).toEqual([
      'create template',
      'create version of 70: Subject of your email',
      'create version of 70: Two',
      'update 70 active 103',
    ]);
    expect(result.createdIds.get(second.key)).toBe(103);
  });

  it('creates only drafts of an existing template and keeps the active version unless one is marked', async () => {
    const { log, calls } = recorder();
    const versions = editorVersions(TEMPLATE);
    await saveTemplate(
      { templateId: 7, versions, pendingActiveKey: null, activeVersionId: 11 },
      calls,
    );
    expect(log).toEqual(['update 7 active 11']);
    await saveTemplate(
      { templateId: 7, versions, pendingActiveKey: '12', activeVersionId: 11 },
      calls,
    );
    expect(log.at(-1)).toBe('update 7 active 12');
  });

  it('stops at the first failing call', async () => {
    const { log, calls } = recorder();
    calls.createVersion = vi.fn(async () => {
      throw new Error('400');
    });
    await expect(
      saveTemplate(
        {
          templateId: 7,
          versions: [newDraft([], undefined)],
          pendingActiveKey: null,
          activeVersionId: 11,
        },
        calls,
      ),
    ).rejects.toThrow('400');
    expect(log).toEqual([]);
  });

  it('finds the saved versions with edits, which the save asks about first', () => {
    const versions = editorVersions(TEMPLATE);
    const edited = [
      { ...versions[0]!, content: { ...versions[0]!.content, body: '<p>x</p>' } },
      versions[1]!,
    ];
    expect(modifiedVersions(edited).map(versionLabel)).toEqual(['v1*']);
  });
});

describe('text derivation', () => {
  it('derives text from the HTML: blocks on lines, links with their address, no script or style', () => {
    const html =
      '<html><head><style>p{color:red}</style></head><body><h1>Hello {{name}}</h1><p>Your case <b>{{caseId}}</b>.</p><script>alert(1)</script><a href="https://example.com/case">Open</a></body></html>';
    expect(textFromHtml(html)).toBe(
      'Hello {{name}}\n\nYour case {{caseId}}.\n\nOpen [https://example.com/case]',
    );
  });

  it('sends blank text and schema as null, so that the server derives the text', () => {
    expect(
      versionRequest({
        fromAddress: 'a@b.example',
        subject: 'S',
        body: '<p>x</p>',
        textContent: '  ',
        jsonSchema: '',
      }),
    ).toEqual({
      fromAddress: 'a@b.example',
      subject: 'S',
      body: '<p>x</p>',
      textContent: null,
      jsonSchema: null,
    });
  });
});

describe('test send', () => {
  it.each([
    ['qa@console.example', true],
    [' qa@console.example ', true],
    ['qa@console', false],
    ['qa console@example.com', false],
    ['@example.com', false],
    ['', false],
  ])('recipient %j matches the {email} pattern: %s', (address, valid) => {
    expect(isTestRecipient(address)).toBe(valid);
  });

  it('is disabled without a key, without a version, and until the version is saved', () => {
    const [saved] = editorVersions(TEMPLATE);
    expect(testSendBlocker('', saved)).toBe('noKey');
    expect(testSendBlocker('welcome', undefined)).toBe('noVersion');
    expect(testSendBlocker('welcome', newDraft([saved!], saved))).toBe('unsaved');
    expect(
      testSendBlocker('welcome', { ...saved!, content: { ...saved!.content, subject: 'x' } }),
    ).toBe('unsaved');
    expect(testSendBlocker('welcome', saved)).toBeNull();
  });
});
