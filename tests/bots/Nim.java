// A Nim bot in Java, written from the test game's protocol (kernel/arena_kernel/testing/nim.py).
// Run from source: java Nim.java. It answers "move <pile>" with "take <k>". First it writes
// to stderr what the sandbox tests read (tests/system/sandbox): its process id, how many seccomp
// filters it runs under and, when $SANDBOX_PEEK names a file, whether it can see that file.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;

public class Nim {
    static void report() throws Exception {
        String filters = Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(line -> line.startsWith("Seccomp_filters:"))
            .map(line -> line.split("\\s+")[1])
            .findFirst()
            .orElseThrow();
        String line = "pid " + ProcessHandle.current().pid() + ", filters " + filters;
        String peek = System.getenv("SANDBOX_PEEK");
        if (peek != null) {
            line += ", " + peek + (Files.exists(Path.of(peek)) ? " visible" : " hidden");
        }
        System.err.println(line);
    }

    public static void main(String[] args) throws Exception {
        report();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split(" ");
            if (words[0].equals("move")) {
                int pile = Integer.parseInt(words[1]);
                int take = pile % 4 == 0 ? 1 : pile % 4;
                System.out.println("take " + take);
                System.out.flush();
            }
        }
    }
}
