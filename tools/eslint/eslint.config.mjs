// ESLint flat config for the browser scripts under src/ball/web/static/ (ES modules loaded
// by <script type="module">, no bundler). scripts/test.sh runs it from the repository root:
// tools/eslint/node_modules/.bin/eslint -c tools/eslint/eslint.config.mjs src/ball/web/static
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_" }],
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
