import { formListSchema, formsApi } from '@console/contracts';
import type { ConsoleApp } from '../../http/console-app.ts';
import type { FeatureDependencies } from '../index.ts';
import { listForms } from './queries.ts';

/** The forms service calls of this stage: only the list (spec part 2, "Forms service"). */
export function registerFormRoutes(app: ConsoleApp, { database }: FeatureDependencies) {
  app.get(
    formsApi.list.path,
    {
      config: { allow: ['staff'] },
      schema: {
        tags: ['forms'],
        summary: 'List the forms (id, name, createdAt, updatedAt), by name',
        response: { 200: formListSchema },
      },
    },
    async () => listForms(database.db),
  );
}
