// Starts `zrf lsp` for .zrf and .tests files; everything else comes from the server.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("zrf").get("path") || "zrf";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "zrf",
    "zrf",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "zrf" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
