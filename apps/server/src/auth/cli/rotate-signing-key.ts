import { loadConfig } from '../../config.ts';
import { databaseErrorCode, UNDEFINED_TABLE } from '../../db/errors.ts';
import { openConfiguredDatabase } from '../../db/open.ts';
import { rotateSigningKey } from '../signing-keys.ts';

/**
 * npm run rotate-signing-key     a new access-token signing key now (docs/operations.md)
 *
 * Every instance signs with it from its next key reload (within 30 s); the previous key still
 * verifies the tokens it signed until they expire (ACCESS_TOKEN_TTL_SECONDS, plus 30 s).
 */
const config = loadConfig();
const database = await openConfiguredDatabase(config.database, { shareRunningEmbedded: true });
try {
  const kid = await rotateSigningKey(database.db);
  console.log(`Database: ${database.displayName}`);
  console.log(`New signing key: ${kid}`);
} catch (error) {
  if (databaseErrorCode(error) !== UNDEFINED_TABLE) throw error;
  console.error(`${database.displayName} is not migrated yet: run npm run migrate first.`);
  process.exitCode = 1;
} finally {
  await database.close();
}
