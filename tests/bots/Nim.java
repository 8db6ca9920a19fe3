// A Nim bot in Java, written from the test game's protocol (kernel/testing/nim.py).
// Run from source: java Nim.java. It answers "move <pile>" with "take <k>".
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class Nim {
    public static void main(String[] args) throws Exception {
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
