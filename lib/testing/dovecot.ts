import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { userInfo } from "node:os";
import path from "node:path";

const DOVECOT = "/usr/sbin/dovecot";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function listening(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`dovecot did not listen on ${port}`);
}

/**
 * A real IMAP server for a test: Debian's Dovecot (package dovecot-imapd),
 * run in the foreground from a configuration written to a temporary folder,
 * with one mailbox whatever the user name and the password `bounce-pass`.
 * Mail is stored as the dovecot user, which must be able to enter the folder.
 */
export async function startDovecot(): Promise<{ url: string; stop(): Promise<void> }> {
  if (!existsSync(DOVECOT))
    throw new Error(`Dovecot not found at ${DOVECOT}: install Debian's dovecot-imapd for the bounce mailbox tests`);
  const dir = mkdtempSync("/tmp/dovecot-test-");
  chmodSync(dir, 0o755);
  const mail = path.join(dir, "mail");
  mkdirSync(mail);
  mkdirSync(path.join(dir, "run"));
  mkdirSync(path.join(dir, "state"));
  const mailUser = userInfo().uid === 0 ? "dovecot" : userInfo().username;
  if (userInfo().uid === 0) {
    const uid = Number(execFileSync("id", ["-u", mailUser]).toString());
    const gid = Number(execFileSync("id", ["-g", mailUser]).toString());
    chownSync(mail, uid, gid);
  }
  const port = await freePort();
  const config = path.join(dir, "dovecot.conf");
  writeFileSync(
    config,
    `protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
mail_location = maildir:${mail}/%u
first_valid_uid = 1
mail_uid = ${mailUser}
mail_gid = ${mailUser}
passdb {
  driver = static
  args = password=bounce-pass
}
userdb {
  driver = static
  args = uid=${mailUser} gid=${mailUser} home=${mail}/%u
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`,
  );
  const child: ChildProcess = spawn(DOVECOT, ["-F", "-c", config], { stdio: "ignore" });
  await listening(port, Date.now() + 30_000);
  return {
    url: `imap://bounces:bounce-pass@127.0.0.1:${port}/INBOX`,
    stop: async () => {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
