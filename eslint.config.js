import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// Which folder may import which (src/layers.json): every other import across folders is an error.
const layers = JSON.parse(readFileSync(join(import.meta.dirname, 'src/layers.json'), 'utf8'));
const shared = layers.shared.map((file) => `./${file}`);
const zones = [
  ...Object.entries(layers.folders).map(([folder, allowed]) => ({
    target: `./src/${folder}`,
    from: './src',
    except: [`./${folder}`, ...shared, ...allowed.map((dep) => `./${dep}`)],
    message: `src/${folder} may import only ${[...allowed, ...layers.shared].join(', ')} (src/layers.json)`,
  })),
  ...layers.shared.map((file) => ({
    target: `./src/${file}`,
    from: './src',
    except: shared,
    message: `src/${file} is shared by every folder and imports nothing of src/ but the other shared files`,
  })),
  ...Object.entries(layers.entries).map(([file, allowed]) => ({
    target: `./src/${file}`,
    from: './src',
    except: [`./${file}`, ...shared, ...allowed.map((dep) => `./${dep}`)],
    message: `src/${file} may import only ${[...allowed, ...layers.shared].join(', ')} (src/layers.json)`,
  })),
];

export default tseslint.config(
  { ignores: ['dist/**', 'packages/*/dist/**', 'node_modules/**', 'data/**', 'coverage/**', 'bin/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Plain JavaScript run by Node (the build, the launcher's helper): Node's globals.
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js'] })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      // No import circle between files (type-only imports included by `madge --circular` in npm run lint).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones }] },
  },
);
