// Playouts a second of the Java agent MCE_PG_R of Gedda, Lagerkvist and Butler ("Monte Carlo
// Methods for the Game Kingdomino", IEEE CIG 2018) at early, mid and late positions of 4-player
// games, for bench/kingdomino_java.py. Our own driver: it only calls the agent's public classes
// (a built copy of their project on the classpath, named by KDOM_AI_CLASSPATH); nothing of
// theirs is in this repository.
//
//   java -cp <this class>:<their classes>:<fastutil> KdomAiPlayouts SECONDS GAMES WARMUP SEED
//
// Positions: seat 0's turns 2, 6 and 10 (as in bench/players_kingdomino.py) of GAMES games played
// at random from a deal; at each, one MCE_PG_R decision of SECONDS (the agent's own time limit),
// after a warm-up decision of WARMUP seconds at each stage (the JIT's work, not counted). MCE_PG_R
// is assembled as the agent's strategy factory does (all moves, player-greedy playouts, relative
// score), its score function wrapped to count the playouts exactly. Prints one JSON line: for
// each stage the playouts, the wall seconds and the process CPU seconds of its decisions.

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.lang.management.ManagementFactory;

import kingdominoplayer.SearchParameters;
import kingdominoplayer.gamecontents.GameContents;
import kingdominoplayer.naiverepresentation.datastructures.Domino;
import kingdominoplayer.tinyrepresentation.datastructures.TerrainCode;
import kingdominoplayer.tinyrepresentation.datastructures.TinyConst;
import kingdominoplayer.tinyrepresentation.datastructures.TinyGameState;
import kingdominoplayer.tinyrepresentation.gamestrategies.TinyMonteCarloEvaluation;
import kingdominoplayer.tinyrepresentation.movefilters.TinyAllMoves;
import kingdominoplayer.tinyrepresentation.search.montecarlo.evaluation.PlayoutScoringFunction;
import kingdominoplayer.tinyrepresentation.search.montecarlo.evaluation.RelativeScoreFunction;
import kingdominoplayer.tinyrepresentation.simulationstrategies.TinyPlayerGreedySimulationStrategy;

public final class KdomAiPlayouts {
    private static final String[] PLAYERS = {"p0", "p1", "p2", "p3"};
    private static final int[] TURNS = {2, 6, 10};
    private static final String[] STAGES = {"early", "mid", "late"};

    private KdomAiPlayouts() {}

    /** A domino as the agent's byte layout: number, two halves, no position yet. */
    private static byte[] dominoBytes(final Domino domino, final int size) {
        final byte[] out = new byte[size];
        Arrays.fill(out, TinyConst.INVALID_PLACEMENT_VALUE);
        out[TinyConst.DOMINO_ID_INDEX] = (byte) domino.getNumber();
        out[TinyConst.DOMINO_TILE_1_TERRAIN_INDEX] = TerrainCode.from(domino.getTile1().getTerrain());
        out[TinyConst.DOMINO_TILE_1_CROWNS_INDEX] = (byte) domino.getTile1().getCrowns();
        out[TinyConst.DOMINO_TILE_2_TERRAIN_INDEX] = TerrainCode.from(domino.getTile2().getTerrain());
        out[TinyConst.DOMINO_TILE_2_CROWNS_INDEX] = (byte) domino.getTile2().getCrowns();
        return out;
    }

    /** A new 4-player game: castles placed, the first line of 4 dealt, no claims yet. */
    private static TinyGameState newGame(final Random rng) {
        final List<Domino> deck = new ArrayList<>(GameContents.getDominoes());
        Collections.shuffle(deck, rng);
        final List<Domino> line = new ArrayList<>(deck.subList(0, 4));
        line.sort((a, b) -> Integer.compare(a.getNumber(), b.getNumber()));
        final int board = TinyConst.SINGLE_PLAYER_KINGDOM_SIZE;
        final byte[] terrains = new byte[PLAYERS.length * board];
        final byte[] crowns = new byte[PLAYERS.length * board];
        final int castle = TinyGameState.tileCoordinateToLinearIndex(0, 0);
        for (int p = 0; p < PLAYERS.length; ++p) {
            terrains[p * board + castle] = TerrainCode.from("CASTLE");
        }
        final int element = TinyConst.DRAFT_ELEMENT_SIZE;
        final byte[] current = new byte[4 * element];
        for (int i = 0; i < 4; ++i) {
            final byte[] slot = dominoBytes(line.get(i), element);
            slot[TinyConst.DRAFT_ELEMENT_PLAYER_ID_INDEX] = TinyConst.INVALID_PLAYER_ID;
            System.arraycopy(slot, 0, current, i * element, element);
        }
        final byte[] previous = new byte[4 * element];
        Arrays.fill(previous, TinyConst.INVALID_DOMINO_VALUE);
        final int size = TinyConst.DOMINO_SIZE;
        final byte[] pile = new byte[(deck.size() - 4) * size];
        for (int i = 4; i < deck.size(); ++i) {
            System.arraycopy(dominoBytes(deck.get(i), size), 0, pile, (i - 4) * size, size);
        }
        return new TinyGameState(terrains, crowns, current, previous, PLAYERS, pile, null);
    }

    /** Seat 0's positions at the start of its turns 2, 6 and 10 of a game played at random. */
    private static TinyGameState[] positions(final Random rng) {
        final TinyGameState[] out = new TinyGameState[TURNS.length];
        TinyGameState state = newGame(rng);
        int turn = 0;
        while (!state.isGameOver()) {
            final String player = state.getPlayerTurn();
            if (player.equals(PLAYERS[0])) {
                ++turn;
                for (int i = 0; i < TURNS.length; ++i) {
                    if (TURNS[i] == turn) {
                        out[i] = state;
                    }
                }
            }
            final byte[] moves = state.getAvailableMoves(player);
            final int count = moves.length / TinyConst.MOVE_ELEMENT_SIZE;
            final byte[] move = TinyGameState.getRow(moves, rng.nextInt(count), TinyConst.MOVE_ELEMENT_SIZE);
            state = state.makeMove(player, move);
        }
        return out;
    }

    /** MCE_PG_R's score of a finished playout, counting the playouts. */
    private static final class Counted implements PlayoutScoringFunction {
        private final PlayoutScoringFunction inner = new RelativeScoreFunction();
        long playouts;

        @Override
        public double applyTo(final TinyGameState state, final String player) {
            ++playouts;
            return inner.applyTo(state, player);
        }
    }

    private static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** One MCE_PG_R decision of `seconds` at `state` (seat 0 to move): {playouts, wall, cpu}. */
    private static double[] decide(final TinyGameState state, final double seconds) {
        final SearchParameters limits = new SearchParameters(Long.MAX_VALUE, seconds);
        final Counted score = new Counted();
        final TinyMonteCarloEvaluation agent = new TinyMonteCarloEvaluation(
                new TinyAllMoves(), new TinyPlayerGreedySimulationStrategy(), score, limits);
        final PrintStream out = System.out;
        // the agent prints every move's score after its search: kept off our one result line
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        final long cpu = cpuNanos();
        final long wall = System.nanoTime();
        try {
            agent.selectMove(PLAYERS[0], state);
        } finally {
            System.setOut(out);
        }
        return new double[] {score.playouts, (System.nanoTime() - wall) / 1e9, (cpuNanos() - cpu) / 1e9};
    }

    public static void main(final String[] args) {
        if (args.length != 4) {
            System.err.println("usage: KdomAiPlayouts SECONDS GAMES WARMUP_SECONDS SEED");
            System.exit(2);
        }
        final double seconds = Double.parseDouble(args[0]);
        final int games = Integer.parseInt(args[1]);
        final double warmup = Double.parseDouble(args[2]);
        final Random rng = new Random(Long.parseLong(args[3]));
        final List<TinyGameState[]> all = new ArrayList<>();
        for (int g = 0; g < games; ++g) {
            all.add(positions(rng));
        }
        if (warmup > 0) {
            for (final TinyGameState state : all.get(0)) {
                decide(state, warmup);
            }
        }
        final StringBuilder json = new StringBuilder("{\"side\": \"kdom-ai MCE_PG_R\"");
        json.append(", \"runtime\": \"Java ").append(System.getProperty("java.version")).append('"');
        for (int i = 0; i < STAGES.length; ++i) {
            final double[] sum = new double[3];
            for (final TinyGameState[] game : all) {
                final double[] one = decide(game[i], seconds);
                for (int k = 0; k < 3; ++k) {
                    sum[k] += one[k];
                }
            }
            json.append(String.format(Locale.ROOT, ", \"%s\": [%d, %.4f, %.4f]", STAGES[i], (long) sum[0], sum[1], sum[2]));
        }
        System.out.println(json.append('}'));
    }
}
